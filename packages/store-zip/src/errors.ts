import { nameErrorClass } from "@z/errors";
import { StoreError } from "@z/store-core";

declare module "@z/errors" {
  interface ZarrErrorMap {
    ZipError: ZipError;
  }
}

/**
 * A zip archive that cannot be read as one: no end-of-central-directory record, a central
 * directory that is cut short or points outside the archive, an entry whose local header
 * disagrees with the central directory, a checksum mismatch, an unsupported compression method
 * or encryption. Also raised for misuse of an archive being written (a closed writer).
 */
export class ZipError extends StoreError {
  static {
    nameErrorClass(ZipError, "ZipError");
  }
}

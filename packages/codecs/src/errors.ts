import { nameErrorClass, ZarrError, type ZarrErrorOptions } from "@z/errors";
import type { CodecNotLoadedError } from "./not-loaded.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    CodecError: CodecError;
    UnknownCodecError: UnknownCodecError;
    CodecNotLoadedError: CodecNotLoadedError;
    CodecConfigError: CodecConfigError;
    DecodeError: DecodeError;
    ChecksumError: ChecksumError;
  }
}

/** What a codec error can say about where it happened and why. */
export type CodecErrorOptions = Pick<ZarrErrorOptions, "key" | "codec" | "cause">;

/**
 * Base class of the errors codecs raise. `codec` names the codec that failed: the codec pipeline
 * sets it when the codec did not. `key` is the store key of the chunk or shard: codecs do not
 * know it, the reader that fetched the bytes records it (and names it in the message).
 */
export class CodecError extends ZarrError {
  static {
    nameErrorClass(CodecError, "CodecError");
  }
  /** The store key of the chunk or shard the error is about, when known. */
  declare readonly key?: string;
  /** The name of the codec that failed, when known. */
  declare readonly codec?: string;

  constructor(message?: string, options?: CodecErrorOptions) {
    super(message, options);
  }
}

/**
 * A codec name that no registered codec answers to.
 * @category Errors
 */
export class UnknownCodecError extends CodecError {
  static {
    nameErrorClass(UnknownCodecError, "UnknownCodecError");
  }
  /** The unknown codec's name. */
  declare readonly codec: string;
  /** @param reason why a known codec cannot be used, replacing the generic advice */
  constructor(codec: string, where = "", reason?: string) {
    super(
      `${reason ? "Unsupported" : "Unknown"} codec "${codec}"${where ? ` in ${where}` : ""}. ` +
        (reason
          ? `${reason}.`
          : "Register it with registerCodec() if it comes from an extension, or import the package that provides it."),
      { codec },
    );
  }
}

/** A codec configuration that is invalid (a missing field, a value out of range). */
export class CodecConfigError extends CodecError {
  static {
    nameErrorClass(CodecConfigError, "CodecConfigError");
  }
}

/**
 * Bytes that do not decode: corrupt or truncated data, or a chunk that decodes to a size other
 * than the chunk's. Never garbage, never an unbounded allocation. `key` names the chunk,
 * `codec` the codec that refused the bytes, `cause` what a library underneath reported.
 * @category Errors
 */
export class DecodeError extends CodecError {
  static {
    nameErrorClass(DecodeError, "DecodeError");
  }
}

/**
 * A checksum (crc32c) that does not match the data it protects.
 * @category Errors
 */
export class ChecksumError extends DecodeError {
  static {
    nameErrorClass(ChecksumError, "ChecksumError");
  }
}

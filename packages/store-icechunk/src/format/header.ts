import { DecompressionError } from "@z/compression/errors";
import { zstdDecompress } from "@z/compression/zstd";
import { IcechunkFormatError } from "../errors.js";

/** `ICE🧊CHUNK` in UTF-8: the first 12 bytes of every Icechunk metadata file. */
export const MAGIC = new Uint8Array([
  0x49, 0x43, 0x45, 0xf0, 0x9f, 0xa7, 0x8a, 0x43, 0x48, 0x55, 0x4e, 0x4b,
]);
/** Magic (12) + implementation name (24) + spec version + file type + compression. */
export const HEADER_LENGTH = 39;

/** The kinds of metadata file, as the header's file type byte names them. */
export const FileType: Record<FileTypeName, number> = {
  snapshot: 1,
  manifest: 2,
  transactionLog: 4,
  repoInfo: 6,
};

/** A metadata file's kind. */
export type FileTypeName = "snapshot" | "manifest" | "transactionLog" | "repoInfo";

/** What a metadata file's header says. */
export interface FileHeader {
  /** The writing implementation, e.g. `ic-2.2.2`. */
  implementation: string;
  /** 1 or 2. */
  specVersion: 1 | 2;
  /** The file's kind. */
  fileType: FileTypeName;
  /** `none` or `zstd`. */
  compression: "none" | "zstd";
}

/** Limits for decoding metadata files. */
export interface DecodeLimits {
  /** The most bytes one metadata file's payload may decompress to. */
  maxMetadataBytes: number;
}

/** The default: 512 MiB, far beyond any real snapshot or manifest. */
export const DEFAULT_LIMITS: DecodeLimits = { maxMetadataBytes: 512 * 1024 * 1024 };

/** Parses and checks a metadata file's header. @throws IcechunkFormatError */
export function parseHeader(file: string, bytes: Uint8Array, expected: FileTypeName): FileHeader {
  if (bytes.length < HEADER_LENGTH)
    throw new IcechunkFormatError(
      file,
      `it has ${bytes.length} bytes, fewer than the ${HEADER_LENGTH}-byte header`,
    );
  for (let i = 0; i < MAGIC.length; i++) {
    if (bytes[i] !== MAGIC[i])
      throw new IcechunkFormatError(
        file,
        "it does not start with the Icechunk magic bytes ICE🧊CHUNK",
      );
  }
  const implementation = new TextDecoder().decode(bytes.subarray(12, 36)).replace(/[ \0]+$/, "");
  const version = bytes[36];
  if (version !== 1 && version !== 2)
    throw new IcechunkFormatError(file, `spec version ${version} is not supported (1 and 2 are)`);
  const typeByte = bytes[37];
  const fileType = (Object.keys(FileType) as FileTypeName[]).find((k) => FileType[k] === typeByte);
  if (fileType === undefined)
    throw new IcechunkFormatError(file, `file type ${typeByte} is unknown`);
  if (fileType !== expected)
    throw new IcechunkFormatError(
      file,
      `it is a ${fileType} file where a ${expected} file was expected`,
    );
  const comp = bytes[38];
  if (comp !== 0 && comp !== 1)
    throw new IcechunkFormatError(
      file,
      `compression algorithm ${comp} is unknown (0 = none, 1 = zstd)`,
    );
  return {
    implementation,
    specVersion: version,
    fileType,
    compression: comp === 1 ? "zstd" : "none",
  };
}

/** Checks the header and returns it with the decompressed flatbuffers payload. */
export async function readMetadataFile(
  file: string,
  bytes: Uint8Array,
  expected: FileTypeName,
  limits: DecodeLimits,
): Promise<{ header: FileHeader; payload: Uint8Array }> {
  const header = parseHeader(file, bytes, expected);
  const body = bytes.subarray(HEADER_LENGTH);
  if (header.compression === "none") {
    if (body.length > limits.maxMetadataBytes)
      throw new IcechunkFormatError(
        file,
        `its payload exceeds the ${limits.maxMetadataBytes}-byte limit`,
      );
    return { header, payload: body };
  }
  try {
    const payload = await zstdDecompress(body, { maxSize: limits.maxMetadataBytes });
    return { header, payload };
  } catch (error) {
    if (error instanceof DecompressionError)
      throw new IcechunkFormatError(file, `its zstd payload is corrupt: ${error.message}`, {
        cause: error,
      });
    throw error;
  }
}

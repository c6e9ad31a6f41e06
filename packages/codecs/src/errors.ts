const ZARR_ERROR_BRAND = Symbol.for("@z/error");

/** Base class of the errors codecs raise. */
export class CodecError extends Error {
  override name = "CodecError";
  readonly [ZARR_ERROR_BRAND] = true;
  /**
   * The store key of the chunk or shard the error is about. Codecs do not know it; the reader
   * that fetched the bytes sets it (and names the key in the message) before passing the error on.
   */
  key?: string;

  constructor(message?: string, options?: { key?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    if (options?.key !== undefined) this.key = options.key;
  }
}

/**
 * A codec name that no registered codec answers to.
 * @category Errors
 */
export class UnknownCodecError extends CodecError {
  override name = "UnknownCodecError";
  /** @param reason why a known codec cannot be used, replacing the generic advice */
  constructor(
    readonly codec: string,
    where = "",
    reason?: string,
  ) {
    super(
      `${reason ? "Unsupported" : "Unknown"} codec "${codec}"${where ? ` in ${where}` : ""}. ` +
        (reason
          ? `${reason}.`
          : "Register it with registerCodec() if it comes from an extension, or import the package that provides it."),
    );
  }
}

/** A codec configuration that is invalid (a missing field, a value out of range). */
export class CodecConfigError extends CodecError {
  override name = "CodecConfigError";
}

/**
 * Bytes that do not decode: corrupt or truncated data, or a chunk that decodes to a size other
 * than the chunk's. Never garbage, never an unbounded allocation.
 * @category Errors
 */
export class DecodeError extends CodecError {
  override name = "DecodeError";
}

/**
 * A checksum (crc32c) that does not match the data it protects.
 * @category Errors
 */
export class ChecksumError extends DecodeError {
  override name = "ChecksumError";
}

import { nameErrorClass, ZarrError } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    DecompressionError: DecompressionError;
  }
}

/** The facts a {@link DecompressionError} can carry besides its format and problem. */
export interface DecompressionErrorOptions {
  /** The output bound the data would have passed, for data that decodes to more. */
  limit?: number;
  /** What a library underneath reported. */
  cause?: unknown;
}

/**
 * Compressed data that does not decode: corrupt or truncated, or decoding to more than the
 * bound the caller set (then `limit` is that bound). `format` names the format (`lz4`, `zstd`,
 * `zlib`, ...) and `problem` says what is wrong, so a caller that knows more (which chunk,
 * which codec) can word its own message from the facts.
 * @category Errors
 */
export class DecompressionError extends ZarrError {
  static {
    nameErrorClass(DecompressionError, "DecompressionError");
  }
  /** The format of the data: `lz4`, `zstd`, `zlib`, `gzip`, `snappy`, `blosclz`, ... */
  readonly format: string;
  /** What is wrong with the data, without the format's name. */
  readonly problem: string;
  /** The output bound the data decodes past, when that is the problem. */
  readonly limit?: number;

  constructor(format: string, problem: string, options: DecompressionErrorOptions = {}) {
    super(
      options.limit === undefined
        ? `corrupt ${format} data: ${problem}`
        : `${format} data: ${problem}`,
      "cause" in options ? { cause: options.cause } : {},
    );
    this.format = format;
    this.problem = problem;
    if (options.limit !== undefined) this.limit = options.limit;
  }

  /** Data that decodes to more than `limit` bytes. */
  static tooLarge(format: string, limit: number): DecompressionError {
    return new DecompressionError(format, `it decodes to more than the ${limit} bytes allowed`, {
      limit,
    });
  }
}

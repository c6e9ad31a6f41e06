import { bz2Decompress } from "@z/compression/bz2";
import { DecompressionError } from "@z/compression/errors";
import type { JsonObject, NamedConfig } from "@z/metadata";
import { CodecConfigError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { decodeLimit, integerOption, messageOf } from "./options.js";

const NAME = "numcodecs.bz2";

/**
 * numcodecs' `bz2` codec (`{level}`, 1-9), read-only: decoding runs libbzip2 itself (compiled to
 * WebAssembly by @foxglove/wasm-bz2) into an output buffer of exactly the chunk's bound, so
 * libbzip2 stops with an error rather than write past it. No maintained bzip2 encoder exists
 * for JavaScript, so arrays compressed with bz2 can be read but not written.
 */
export class Bz2Codec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name = NAME;

  constructor(readonly level = 1) {}

  /** Builds the codec; a missing level is numcodecs' default, 1. */
  static fromConfig(configuration: JsonObject): Bz2Codec {
    return new Bz2Codec(integerOption(configuration, "level", NAME, 1, 1, 9));
  }

  toJson(): NamedConfig {
    return { name: NAME, configuration: { level: this.level }, mustUnderstand: true };
  }

  encode(): Uint8Array {
    throw new CodecConfigError(
      `${NAME}: writing bz2 is not supported (there is no maintained bzip2 encoder for JavaScript); ` +
        "bz2 arrays can be read; write with another compressor such as zstd or zlib",
    );
  }

  async decode(bytes: Uint8Array, options: BytesDecodeOptions): Promise<Uint8Array> {
    const limit = decodeLimit(options);
    let out: Uint8Array;
    try {
      out = await bz2Decompress(bytes, { maxSize: limit });
    } catch (error) {
      if (!(error instanceof DecompressionError)) {
        throw new DecodeError(
          `${NAME} codec: could not load @foxglove/wasm-bz2 (${messageOf(error)}); in browsers, map it with an import map (see docs/browsers.md)`,
          { cause: error },
        );
      }
      const detail =
        error.limit === undefined
          ? error.problem
          : `the data decodes to more than the ${limit} bytes this chunk may hold`;
      throw new DecodeError(`${NAME} codec: ${detail}`, { cause: error });
    }
    if (options.expectedSize !== undefined && out.length !== options.expectedSize) {
      throw new DecodeError(
        `${NAME} codec: the data decodes to ${out.length} bytes; the chunk has ${options.expectedSize}`,
      );
    }
    return out;
  }
}

import type { JsonObject, NamedConfig } from "@z/metadata";
import { importBzip2 } from "#wasm-libraries";
import { CodecConfigError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { decodeLimit, integerOption, messageOf } from "./options.js";

const NAME = "numcodecs.bz2";

interface Bzip2Decoder {
  decompress(src: Uint8Array, destSize: number): Uint8Array;
}

let decoder: Promise<Bzip2Decoder> | undefined;

/** @foxglove/wasm-bz2 (libbzip2 compiled to WebAssembly), loaded on first use. */
function loadBzip2(): Promise<Bzip2Decoder> {
  decoder ??= importBzip2().then((m) => {
    const Bzip2 = (m as unknown as { default: { init(): Promise<Bzip2Decoder> } }).default;
    return Bzip2.init();
  });
  return decoder;
}

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
    if (bytes.length < 4 || bytes[0] !== 0x42 || bytes[1] !== 0x5a || bytes[2] !== 0x68) {
      throw new DecodeError(`${NAME} codec: not bzip2 data (no "BZh" header)`);
    }
    const bzip2 = await loadBzip2().catch((error: unknown) => {
      decoder = undefined;
      throw new DecodeError(
        `${NAME} codec: could not load @foxglove/wasm-bz2 (${messageOf(error)}); in browsers, map it with an import map (see docs/browsers.md)`,
        { cause: error },
      );
    });
    let out: Uint8Array;
    try {
      out = bzip2.decompress(bytes, Math.max(limit, 1));
    } catch (error) {
      const message = messageOf(error);
      const detail = message.includes("OUTBUFF_FULL")
        ? `the data decodes to more than the ${limit} bytes this chunk may hold`
        : message;
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

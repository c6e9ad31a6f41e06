import { afterSimdLoad } from "@z/compression/internal";
import { lz4CompressWasm, lz4DecompressBlock } from "@z/compression/lz4";
import type { JsonObject, NamedConfig } from "@z/metadata";
import { DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { translatingErrors } from "./decompression.js";
import { decodeLimit, integerOption } from "./options.js";

/**
 * numcodecs' `lz4` codec (`{acceleration}`): a 4-byte little-endian decoded size, then one LZ4
 * block. Encoding uses liblz4 compiled to WebAssembly (numcodecs.js, loaded on first use), which
 * writes what numcodecs writes byte for byte. Decoding checks the size header against the chunk's
 * bound before allocating anything, then decodes the block straight into a buffer of exactly
 * that size: in SIMD WebAssembly once that is loaded (the first decode waits for it), in
 * JavaScript otherwise.
 */
export class Lz4Codec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name = "numcodecs.lz4";

  constructor(readonly acceleration: number = 1) {}

  /** Builds the codec; a missing acceleration is numcodecs' default, 1 (values below 1 act as 1). */
  static fromConfig(configuration: JsonObject): Lz4Codec {
    return new Lz4Codec(integerOption(configuration, "acceleration", "numcodecs.lz4", 1));
  }

  toJson(): NamedConfig {
    return {
      name: this.name,
      configuration: { acceleration: this.acceleration },
      mustUnderstand: true,
    };
  }

  async encode(bytes: Uint8Array): Promise<Uint8Array> {
    const block = await lz4CompressWasm(bytes, this.acceleration);
    const out = new Uint8Array(4 + block.length);
    new DataView(out.buffer).setUint32(0, bytes.length, true);
    out.set(block, 4);
    return out;
  }

  decode(bytes: Uint8Array, options: BytesDecodeOptions): Uint8Array | Promise<Uint8Array> {
    return afterSimdLoad(() => this.decodeNow(bytes, options));
  }

  private decodeNow(bytes: Uint8Array, options: BytesDecodeOptions): Uint8Array {
    if (bytes.length < 5) {
      throw new DecodeError(
        `numcodecs.lz4 codec: ${bytes.length} bytes cannot hold the size header and a block`,
      );
    }
    const size = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true);
    const limit = decodeLimit(options);
    if (size > limit) {
      throw new DecodeError(
        `numcodecs.lz4 codec: the header states ${size} decoded bytes, more than the ${limit} this chunk may hold`,
      );
    }
    if (options.expectedSize !== undefined && size !== options.expectedSize) {
      throw new DecodeError(
        `numcodecs.lz4 codec: the header states ${size} decoded bytes; the chunk has ${options.expectedSize}`,
      );
    }
    const out = new Uint8Array(size);
    const end = translatingErrors(
      () => lz4DecompressBlock(bytes.subarray(4), out),
      (error) => new DecodeError(`numcodecs.lz4 codec: corrupt data: ${error.problem}`),
    );
    if (end !== size) {
      throw new DecodeError(
        `numcodecs.lz4 codec: corrupt data: the block decodes to ${end} bytes, but its header states ${size}`,
      );
    }
    return out;
  }
}

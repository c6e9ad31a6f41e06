import { crc32c } from "@z/compression/checksums";
import type { JsonObject, NamedConfig } from "@z/metadata";
import { ChecksumError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";

/**
 * The `crc32c` codec: appends the CRC-32C of the data as 4 little-endian bytes, and checks it
 * on decode (a mismatch is a {@link ChecksumError}).
 */
export class Crc32cCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  constructor(readonly name = "crc32c") {}

  /** Builds the codec (it has no configuration). */
  static fromConfig(_configuration: JsonObject, name = "crc32c"): Crc32cCodec {
    return new Crc32cCodec(name);
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: {}, mustUnderstand: true };
  }

  encodedSize(decodedSize: number): number {
    return decodedSize + 4;
  }

  encode(bytes: Uint8Array): Uint8Array {
    const out = new Uint8Array(bytes.length + 4);
    out.set(bytes);
    new DataView(out.buffer).setUint32(bytes.length, crc32c(bytes), true);
    return out;
  }

  decode(bytes: Uint8Array, options?: BytesDecodeOptions): Uint8Array {
    if (bytes.length < 4) {
      throw new DecodeError(`crc32c codec: ${bytes.length} bytes cannot hold a 4-byte checksum`);
    }
    const data = bytes.subarray(0, bytes.length - 4);
    if (options && data.length > options.maxSize) {
      throw new DecodeError(
        `crc32c codec: the data has ${data.length} bytes, more than the chunk's ${options.maxSize}`,
      );
    }
    const stored = new DataView(bytes.buffer, bytes.byteOffset + data.length, 4).getUint32(0, true);
    const actual = crc32c(data);
    if (stored !== actual) {
      throw new ChecksumError(
        `crc32c mismatch: the data has checksum 0x${hex(actual)} but 0x${hex(stored)} is stored; the chunk is corrupt`,
      );
    }
    return data;
  }
}

function hex(n: number): string {
  return n.toString(16).padStart(8, "0");
}

import { adler32, crc32, crc32c, fletcher32 } from "@z/compression/checksums";
import { formatValue } from "@z/errors";
import type { JsonObject, NamedConfig } from "@z/metadata";
import { ChecksumError, CodecConfigError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";

/** The 32-bit checksums numcodecs offers as codecs. */
export type Checksum32Kind = "crc32" | "crc32c" | "adler32" | "fletcher32";

/** Where the checksum sits: before the data or after it. */
export type ChecksumLocation = "start" | "end";

const FUNCTIONS: Record<Checksum32Kind, (bytes: Uint8Array) => number> = {
  crc32: (bytes) => crc32(bytes),
  crc32c: (bytes) => crc32c(bytes),
  adler32: (bytes) => adler32(bytes),
  fletcher32: (bytes) => fletcher32(bytes),
};

/**
 * numcodecs' default locations: crc32 and adler32 lead the data, crc32c follows it (as v3
 * `crc32c` does), and so does fletcher32 (which has no other).
 */
const DEFAULT_LOCATION: Record<Checksum32Kind, ChecksumLocation> = {
  crc32: "start",
  crc32c: "end",
  adler32: "start",
  fletcher32: "end",
};

/**
 * numcodecs' 32-bit checksum codecs `numcodecs.crc32`, `numcodecs.crc32c`, `numcodecs.adler32`
 * and `numcodecs.fletcher32` (`{location?: "start" | "end"}`): the data with its checksum as 4 little-endian bytes before or
 * after it. A mismatch on decode is a {@link ChecksumError}.
 */
export class Checksum32Codec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name: string;
  readonly location: ChecksumLocation;

  constructor(
    readonly checksum: Checksum32Kind,
    location?: ChecksumLocation,
  ) {
    this.name = `numcodecs.${checksum}`;
    this.location = location ?? DEFAULT_LOCATION[checksum];
  }

  /** Builds the codec from `{location?}`. */
  static fromConfig(configuration: JsonObject, checksum: Checksum32Kind): Checksum32Codec {
    const location = configuration.location;
    if (location !== undefined && location !== null && location !== "start" && location !== "end") {
      throw new CodecConfigError(
        `numcodecs.${checksum} codec: "location" must be "start" or "end", got ${formatValue(location)}`,
      );
    }
    return new Checksum32Codec(checksum, location ?? undefined);
  }

  /** The metadata entry; a default location is left out, as numcodecs before 0.14 knows no `location`. */
  toJson(): NamedConfig {
    const configuration: JsonObject =
      this.location === DEFAULT_LOCATION[this.checksum] ? {} : { location: this.location };
    return { name: this.name, configuration, mustUnderstand: true };
  }

  encodedSize(decodedSize: number): number {
    return decodedSize + 4;
  }

  encode(bytes: Uint8Array): Uint8Array {
    const out = new Uint8Array(bytes.length + 4);
    const at = this.location === "start" ? 0 : bytes.length;
    out.set(bytes, this.location === "start" ? 4 : 0);
    new DataView(out.buffer).setUint32(at, FUNCTIONS[this.checksum](bytes), true);
    return out;
  }

  decode(bytes: Uint8Array, options?: BytesDecodeOptions): Uint8Array {
    if (bytes.length < 4) {
      throw new DecodeError(
        `${this.name} codec: ${bytes.length} bytes cannot hold a 4-byte checksum`,
      );
    }
    const at = this.location === "start" ? 0 : bytes.length - 4;
    const data =
      this.location === "start" ? bytes.subarray(4) : bytes.subarray(0, bytes.length - 4);
    if (options && data.length > options.maxSize) {
      throw new DecodeError(
        `${this.name} codec: the data has ${data.length} bytes, more than the chunk's ${options.maxSize}`,
      );
    }
    const stored = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true);
    const actual = FUNCTIONS[this.checksum](data);
    if (stored !== actual) {
      throw new ChecksumError(
        `${this.name} mismatch: the data has checksum 0x${hex(actual)} but 0x${hex(stored)} is stored; the chunk is corrupt`,
      );
    }
    return data;
  }
}

function hex(n: number): string {
  return n.toString(16).padStart(8, "0");
}

import { gzipCompress, gzipDecompress } from "@z/compression/deflate";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { decoding } from "./decompression.js";
import { integerOption } from "./options.js";

/**
 * The gzip codec: v3 `gzip` and v2 `numcodecs.gzip` (`{level}`, -1 to 9). In Node it encodes and
 * decodes with node:zlib on libuv's thread pool (several chunks at once, off the main thread);
 * its streams are valid gzip but not the bytes Python writes. In browsers it writes what numcodecs
 * writes (Python's gzip module) byte for byte, except the mtime, which is 0 so that equal chunks
 * encode equally. Decoding reads every gzip member, checks the CRC-32 and never produces more
 * than the chunk's size (node:zlib in Node, fflate or pako in browsers).
 */
export class GzipCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";

  constructor(
    readonly level: number = 5,
    readonly name: "gzip" | "numcodecs.gzip" = "gzip",
  ) {}

  /** Builds the codec; a missing level is zarr-python's default for `gzip` (5), numcodecs' (1) otherwise. */
  static fromConfig(
    configuration: JsonObject,
    name: "gzip" | "numcodecs.gzip" = "gzip",
  ): GzipCodec {
    return new GzipCodec(
      integerOption(configuration, "level", name, name === "gzip" ? 5 : 1, -1, 9),
      name,
    );
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: { level: this.level }, mustUnderstand: true };
  }

  encode(bytes: Uint8Array): Uint8Array | Promise<Uint8Array> {
    return gzipCompress(bytes, this.level);
  }

  decode(bytes: Uint8Array, options: BytesDecodeOptions): Uint8Array | Promise<Uint8Array> {
    return decoding(`${this.name} codec`, () => gzipDecompress(bytes, options));
  }
}

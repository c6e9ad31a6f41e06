import { zlibCompress, zlibDecompress } from "@z/compression/deflate";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { decoding } from "./decompression.js";
import { integerOption } from "./options.js";

/**
 * The zlib codec: v2 `numcodecs.zlib` (`{level}`, -1 to 9), and the bare `zlib` name zarrita
 * reads in v3 metadata. In Node it encodes and decodes with node:zlib on libuv's thread pool (a
 * fork of zlib: valid streams, not Python's bytes). In browsers encoding uses pako, a faithful
 * port of zlib, driven as Python's `zlib.compress` drives zlib, so the output equals what
 * numcodecs writes. Decoding checks the Adler-32 and is bounded by the chunk's size.
 */
export class ZlibCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";

  constructor(
    readonly level: number = 1,
    readonly name: "numcodecs.zlib" | "zlib" = "numcodecs.zlib",
  ) {}

  /** Builds the codec; a missing level is numcodecs' default, 1. */
  static fromConfig(
    configuration: JsonObject,
    name: "numcodecs.zlib" | "zlib" = "numcodecs.zlib",
  ): ZlibCodec {
    return new ZlibCodec(integerOption(configuration, "level", name, 1, -1, 9), name);
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: { level: this.level }, mustUnderstand: true };
  }

  encode(bytes: Uint8Array): Uint8Array | Promise<Uint8Array> {
    return zlibCompress(bytes, this.level);
  }

  decode(bytes: Uint8Array, options: BytesDecodeOptions): Uint8Array | Promise<Uint8Array> {
    return decoding(`${this.name} codec`, () => zlibDecompress(bytes, options));
  }
}

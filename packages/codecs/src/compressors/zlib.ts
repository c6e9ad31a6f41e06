import type { JsonObject, NamedConfig } from "@z/metadata";
import { unzlibBounded } from "#inflate";
import { nativeCodecs } from "#native";
import { lazily } from "../lazy.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { decodeLimit, integerOption } from "./options.js";
import type { DeflateLevel } from "./python-deflate.js";

/** The browser encoder (pako, driven as CPython drives zlib), loaded on the first write. */
const encoder = lazily(() => import("./python-deflate.js"));

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
    if (nativeCodecs) return nativeCodecs.deflate(bytes, this.level);
    return encoder((m) => m.pythonDeflate(bytes, this.level as DeflateLevel, false, "compress"));
  }

  decode(bytes: Uint8Array, options: BytesDecodeOptions): Uint8Array | Promise<Uint8Array> {
    return unzlibBounded(
      bytes,
      decodeLimit(options),
      options.expectedSize !== undefined,
      `${this.name} codec`,
    );
  }
}

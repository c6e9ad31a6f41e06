import { zstdCompress, zstdDecompress } from "@z/compression/zstd";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { decoding } from "./decompression.js";
import { booleanOption, integerOption } from "./options.js";

/**
 * The zstd codec: v3 `zstd` and v2 `numcodecs.zstd` (`{level, checksum}`): node:zlib's native
 * libzstd on libuv's thread pool where Node has it (22.15 and later), else libzstd compiled to
 * WebAssembly (numcodecs.js to encode, zstddec to decode, loaded on first use).
 *
 * Encoding writes one frame that states its content size, like numcodecs. Level 0 means libzstd's
 * default (3); levels are capped at 22 as libzstd does. numcodecs.js cannot reach negative levels
 * and uses 1 for them (native libzstd takes them). numcodecs.js has no checksum option, so with
 * `checksum: true` the frame gets its XXH64 content checksum here, exactly where libzstd would put it.
 *
 * Decoding first walks the frame and block headers: a declared content size beyond the chunk's
 * bound fails at once, and truncated or malformed frames never reach libzstd. A frame that does
 * not declare its size gets its header rewritten to declare the chunk's size when that is known
 * exactly, so libzstd itself refuses to write more or less; otherwise it is decoded only when its
 * block headers prove it fits (a compressed block yields at most 128 KiB, or the window size).
 */
export class ZstdCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";

  constructor(
    readonly level: number = 0,
    readonly checksum: boolean = false,
    readonly name: "zstd" | "numcodecs.zstd" = "zstd",
  ) {}

  /** Builds the codec; missing fields take zarr-python's defaults for `zstd` (level 0) and numcodecs' (level 1) otherwise. */
  static fromConfig(
    configuration: JsonObject,
    name: "zstd" | "numcodecs.zstd" = "zstd",
  ): ZstdCodec {
    return new ZstdCodec(
      integerOption(configuration, "level", name, name === "zstd" ? 0 : 1),
      booleanOption(configuration, "checksum", name, false),
      name,
    );
  }

  /**
   * The metadata entry. `numcodecs.zstd` leaves out `checksum: false`: numcodecs before 0.12
   * (Debian's zarr 2) refuses a configuration that names it.
   */
  toJson(): NamedConfig {
    const configuration: JsonObject =
      this.name === "numcodecs.zstd" && !this.checksum
        ? { level: this.level }
        : { level: this.level, checksum: this.checksum };
    return { name: this.name, configuration, mustUnderstand: true };
  }

  encode(bytes: Uint8Array): Promise<Uint8Array> {
    return zstdCompress(bytes, this.level, this.checksum);
  }

  decode(bytes: Uint8Array, options: BytesDecodeOptions): Promise<Uint8Array> {
    return decoding(`${this.name} codec`, () => zstdDecompress(bytes, options));
  }
}

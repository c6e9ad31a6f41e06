import { lazily, loadSimdKernels } from "@z/compression/internal";
import { formatValue } from "@z/errors";
import type { JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import { CodecConfigError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec, CodecContext } from "../types.js";
import { BLOSC_CNAMES, type BloscCname } from "./header.js";

/** The compressors (blosclz, lz4, lz4hc, snappy, zlib, zstd), loaded on the first write. */
const compressor = lazily(() => loadSimdKernels().then(() => import("./compress.js")));
/** The decompressors, loaded on the first read (with the SIMD kernels, for the block loop). */
const decompressor = lazily(() => loadSimdKernels().then(() => import("./decompress.js")));

/** The v3 spelling of the shuffle filter. */
export type BloscShuffleName = "noshuffle" | "shuffle" | "bitshuffle";

/**
 * numcodecs' shuffle codes: 0 none, 1 byte shuffle, 2 bit shuffle, -1 "auto" (bit shuffle for
 * 1-byte elements, byte shuffle otherwise).
 */
export type BloscShuffleCode = -1 | 0 | 1 | 2;

const SHUFFLE_NAMES: readonly BloscShuffleName[] = ["noshuffle", "shuffle", "bitshuffle"];

/** A resolved Blosc configuration. */
export interface BloscSettings {
  /** The inner compressor. */
  cname: BloscCname;
  /** Compression level, 0 to 9. */
  clevel: number;
  /** The shuffle filter, as numcodecs codes it (-1 is resolved per type size when encoding). */
  shuffle: BloscShuffleCode;
  /** The element size for the shuffle, when the configuration gives one. */
  typesize?: number;
  /** The block size; 0 lets c-blosc's heuristic choose. */
  blocksize: number;
}

/**
 * The Blosc codec, under both of its names: `blosc` (v3: `shuffle` spelled `"noshuffle"`,
 * `"shuffle"`, `"bitshuffle"`, with `typesize`) and `numcodecs.blosc` (v2 and zarr-python's
 * v3 wrapper: `shuffle` 0, 1, 2 or -1). The v3 names are translated to c-blosc's filter codes,
 * so the frame header records the shuffle that was really applied. Without a `typesize` the
 * element size of the chunk is used, as numcodecs does.
 */
export class BloscCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly decodesRanges = true;

  constructor(
    readonly name: "blosc" | "numcodecs.blosc",
    readonly settings: BloscSettings,
    /** The element size of the chunks, used when the settings have no type size. */
    readonly itemSize: number,
  ) {}

  /** Builds the v3 `blosc` codec from its configuration. @throws CodecConfigError */
  static fromV3Config(configuration: JsonObject, context?: CodecContext): BloscCodec {
    const where = "blosc codec";
    const cname = parseCname(required(configuration, "cname", where), where);
    const clevel = parseClevel(required(configuration, "clevel", where), where);
    const shuffleName = required(configuration, "shuffle", where);
    // Some writers put numcodecs' integer codes in v3 metadata; the frame header says what was
    // really applied, so reading them is safe. (We always write the names.)
    const lenient = typeof shuffleName === "number" && [0, 1, 2].includes(shuffleName);
    if (
      !lenient &&
      (typeof shuffleName !== "string" || !SHUFFLE_NAMES.includes(shuffleName as BloscShuffleName))
    ) {
      throw new CodecConfigError(
        `${where}: "shuffle" must be one of ${SHUFFLE_NAMES.map((s) => `"${s}"`).join(", ")}, got ${formatValue(shuffleName)}`,
      );
    }
    const shuffle = (
      lenient ? shuffleName : SHUFFLE_NAMES.indexOf(shuffleName as BloscShuffleName)
    ) as 0 | 1 | 2;
    const typesize = parseTypesize(configuration.typesize, where);
    const blocksize = parseBlocksize(configuration.blocksize, where);
    return new BloscCodec(
      "blosc",
      { cname, clevel, shuffle, typesize, blocksize },
      itemSizeOf(context),
    );
  }

  /** Builds `numcodecs.blosc` from a numcodecs configuration (numcodecs' defaults fill gaps). @throws CodecConfigError */
  static fromNumcodecsConfig(configuration: JsonObject, context?: CodecContext): BloscCodec {
    const where = "numcodecs.blosc codec";
    const cname = parseCname(configuration.cname ?? "lz4", where);
    const clevel = parseClevel(configuration.clevel ?? 5, where);
    const shuffle = configuration.shuffle ?? 1;
    if (shuffle !== -1 && shuffle !== 0 && shuffle !== 1 && shuffle !== 2) {
      throw new CodecConfigError(
        `${where}: "shuffle" must be 0 (none), 1 (byte), 2 (bit) or -1 (auto), got ${formatValue(shuffle)}`,
      );
    }
    const typesize = parseTypesize(configuration.typesize, where);
    const blocksize = parseBlocksize(configuration.blocksize, where);
    return new BloscCodec(
      "numcodecs.blosc",
      { cname, clevel, shuffle, typesize, blocksize },
      itemSizeOf(context),
    );
  }

  /** The type size frames are written with: the configured one, else the chunk's element size. */
  get typesize(): number {
    return this.settings.typesize ?? Math.max(1, this.itemSize);
  }

  /** The shuffle filter frames are written with (numcodecs' "auto" resolved for the type size). */
  get shuffle(): 0 | 1 | 2 {
    const { shuffle } = this.settings;
    if (shuffle === -1) return this.typesize === 1 ? 2 : 1;
    return shuffle;
  }

  toJson(): NamedConfig {
    const { cname, clevel, shuffle, blocksize, typesize } = this.settings;
    if (this.name === "blosc") {
      return {
        name: "blosc",
        configuration: {
          cname,
          clevel,
          shuffle: SHUFFLE_NAMES[this.shuffle],
          typesize: this.typesize,
          blocksize,
        },
        mustUnderstand: true,
      };
    }
    const configuration: JsonObject = { cname, clevel, shuffle, blocksize };
    if (typesize !== undefined) configuration.typesize = typesize;
    return { name: "numcodecs.blosc", configuration, mustUnderstand: true };
  }

  async encode(bytes: Uint8Array): Promise<Uint8Array> {
    const { cname, clevel, blocksize } = this.settings;
    return compressor((m) =>
      m.bloscCompress(bytes, {
        cname,
        clevel,
        shuffle: this.shuffle,
        typesize: this.typesize,
        blocksize,
      }),
    );
  }

  /**
   * Decodes a frame; `options.ranges` limits the work to the blocks holding those bytes (only
   * they are then valid) and `options.into` is decoded into and returned.
   * @throws DecodeError, CodecError (see `bloscDecompress`)
   */
  decode(bytes: Uint8Array, options: BytesDecodeOptions): Uint8Array | Promise<Uint8Array> {
    return decompressor((m) => m.decodeBloscFrame(bytes, options)) as
      | Uint8Array
      | Promise<Uint8Array>;
  }
}

function itemSizeOf(context: CodecContext | undefined): number {
  return context?.spec.dataType.itemSize ?? 1;
}

function required(configuration: JsonObject, key: string, where: string): JsonValue {
  const value = configuration[key];
  if (value === undefined)
    throw new CodecConfigError(`${where}: the configuration has no "${key}"`);
  return value;
}

function parseCname(value: JsonValue, where: string): BloscCname {
  if (typeof value !== "string" || !BLOSC_CNAMES.includes(value as BloscCname)) {
    throw new CodecConfigError(
      `${where}: unknown "cname" ${formatValue(value)}; expected one of ${BLOSC_CNAMES.join(", ")}`,
    );
  }
  return value as BloscCname;
}

function parseClevel(value: JsonValue, where: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 9) {
    throw new CodecConfigError(
      `${where}: "clevel" must be an integer from 0 to 9, got ${formatValue(value)}`,
    );
  }
  return value;
}

function parseTypesize(value: JsonValue | undefined, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new CodecConfigError(
      `${where}: "typesize" must be a positive integer, got ${formatValue(value)}`,
    );
  }
  return value;
}

function parseBlocksize(value: JsonValue | undefined, where: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new CodecConfigError(
      `${where}: "blocksize" must be a non-negative integer (0 = automatic), got ${formatValue(value)}`,
    );
  }
  return value;
}

import { DecompressionError } from "@z/compression/errors";
import { type LzmaFormat, loadLzma, lzmaCompress, lzmaDecompress } from "@z/compression/lzma";
import { formatValue } from "@z/errors";
import type { JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import { CodecConfigError, CodecError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { messageOf } from "./options.js";

const NAME = "numcodecs.lzma";

/** Python's `lzma` format constants, as numcodecs configurations write them. */
const FORMAT = { AUTO: 0, XZ: 1, ALONE: 2, RAW: 3 } as const;
const LZMA2_FILTER = 0x21;
/** liblzma's dictionary size for each preset level 0-9. */
const PRESET_DICT = [
  1 << 18,
  1 << 20,
  1 << 21,
  1 << 22,
  1 << 22,
  1 << 23,
  1 << 23,
  1 << 24,
  1 << 25,
  1 << 26,
];

/** The container of each numcodecs format (auto: `.xz` when the data starts like one, else `.lzma`). */
const CONTAINERS: Record<number, LzmaFormat | "auto"> = {
  [FORMAT.AUTO]: "auto",
  [FORMAT.XZ]: "xz",
  [FORMAT.ALONE]: "lzma",
  [FORMAT.RAW]: "lzma2",
};

/**
 * numcodecs' `lzma` codec (`{format, check, preset, filters}`): `.xz` streams (format 1, the
 * default), `.lzma` files (format 2) and raw LZMA2 (format 3 with one LZMA2 filter), on
 * @napi-rs/lzma.
 *
 * Decoding first walks the data's structure (stream and block headers, LZMA2 chunk headers, each
 * stating how much it decodes to), so data that would decode beyond the chunk's bound, or that
 * is truncated, fails before the decoder runs. `.xz` data with a SHA-256 check is not supported
 * by the decoder (numcodecs' default check is CRC-64, which is verified).
 *
 * Encoding writes `.xz` (without an integrity check; readers accept that), `.lzma`, or raw LZMA2
 * when the chunk fits the dictionary the configured filter gives its readers. `preset` and
 * `check` are kept in the metadata but the encoder uses its own settings. Note that the
 * encoder of @napi-rs/lzma 1.4 (the last release whose native build supports Node 20) stores
 * `.xz` and raw LZMA2 data in uncompressed LZMA2 chunks: valid for every reader, but not
 * smaller. Only `.lzma` (format 2) output is compressed; prefer zstd or zlib for new arrays.
 */
export class LzmaCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name = NAME;

  constructor(
    /** 0 auto, 1 xz, 2 alone, 3 raw. */
    readonly format: number,
    /** The configuration as given, written back unchanged. */
    readonly configuration: JsonObject,
    /** For raw data: the dictionary size the filter gives readers. */
    readonly rawDictionary?: number,
  ) {}

  /**
   * Builds the codec.
   * @throws CodecConfigError for an unknown format, or raw data with filters other than one LZMA2
   */
  static fromConfig(configuration: JsonObject): LzmaCodec {
    const format = configuration.format ?? FORMAT.XZ;
    if (typeof format !== "number" || !Object.values(FORMAT).includes(format as 0)) {
      throw new CodecConfigError(
        `${NAME}: "format" must be 0 (auto), 1 (xz), 2 (alone) or 3 (raw), got ${formatValue(format)}`,
      );
    }
    let rawDictionary: number | undefined;
    if (format === FORMAT.RAW) rawDictionary = rawLzma2Dictionary(configuration.filters);
    return new LzmaCodec(format, configuration, rawDictionary);
  }

  toJson(): NamedConfig {
    return { name: NAME, configuration: { ...this.configuration }, mustUnderstand: true };
  }

  async encode(bytes: Uint8Array): Promise<Uint8Array> {
    if (this.format === FORMAT.RAW && bytes.length > (this.rawDictionary as number)) {
      throw new CodecConfigError(
        `${NAME}: a raw LZMA2 chunk of ${bytes.length} bytes is larger than the filter's dictionary; use format 1 (xz)`,
      );
    }
    await loadLzma().catch((error: unknown) => {
      throw loadError(error);
    });
    const format = CONTAINERS[this.format];
    return lzmaCompress(bytes, format === "auto" ? "xz" : format);
  }

  async decode(bytes: Uint8Array, options: BytesDecodeOptions): Promise<Uint8Array> {
    try {
      return await lzmaDecompress(bytes, CONTAINERS[this.format], options);
    } catch (error) {
      if (!(error instanceof DecompressionError)) throw loadError(error);
      const what =
        error.limit === undefined
          ? `not valid ${error.format} data: ${error.problem}`
          : `the data decodes to more than the ${error.limit} bytes this chunk may hold`;
      throw new DecodeError(`${NAME} codec: ${what}`, { cause: error });
    }
  }
}

/** A failure to load @napi-rs/lzma, told with what to do in browsers. */
function loadError(error: unknown): CodecError {
  return new CodecError(
    `${NAME} codec: could not load @napi-rs/lzma (${messageOf(error)}); in browsers, map it with an import map (see docs/browsers.md)`,
    { cause: error },
  );
}

/** The dictionary size of a raw format's filter chain, which must be one LZMA2 filter. */
function rawLzma2Dictionary(filters: JsonValue | undefined): number {
  const only = Array.isArray(filters) && filters.length === 1 ? filters[0] : undefined;
  const filter =
    typeof only === "object" && only !== null && !Array.isArray(only) ? only : undefined;
  if (!filter || filter.id !== LZMA2_FILTER) {
    throw new CodecConfigError(
      `${NAME}: raw data (format 3) is supported with exactly one LZMA2 filter ({"id": 33, ...}), got ${formatValue(filters)}`,
    );
  }
  if (typeof filter.dict_size === "number") return filter.dict_size;
  const preset = typeof filter.preset === "number" ? filter.preset & 0x1f : 6;
  return PRESET_DICT[Math.min(9, preset)];
}

import type { JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import { formatValue } from "@z/metadata";
import { importLzma } from "#wasm-libraries";
import { CodecConfigError, CodecError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";
import { isXz, type LzmaLayout, lzma2Layout, xzLayout } from "./lzma-layout.js";
import { decodeLimit, messageOf } from "./options.js";

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

type NapiLzma = typeof import("@napi-rs/lzma");
let library: Promise<NapiLzma> | undefined;

/** @napi-rs/lzma (lzma-rust2; native in Node, WASM in browsers), loaded on first use. */
function loadLzma(): Promise<NapiLzma> {
  library ??= importLzma().then(
    (m) => m as NapiLzma,
    (error: unknown) => {
      library = undefined;
      throw new CodecError(
        `${NAME} codec: could not load @napi-rs/lzma (${messageOf(error)}); in browsers, map it with an import map (see docs/browsers.md)`,
        { cause: error },
      );
    },
  );
  return library;
}

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
    const lib = await loadLzma();
    if (this.format === FORMAT.ALONE) return new Uint8Array(await lib.lzma.compress(bytes));
    if (this.format === FORMAT.RAW) {
      if (bytes.length > (this.rawDictionary as number)) {
        throw new CodecConfigError(
          `${NAME}: a raw LZMA2 chunk of ${bytes.length} bytes is larger than the filter's dictionary; use format 1 (xz)`,
        );
      }
      return new Uint8Array(await lib.lzma2.compress(bytes));
    }
    return new Uint8Array(await lib.xz.compress(bytes));
  }

  async decode(bytes: Uint8Array, options: BytesDecodeOptions): Promise<Uint8Array> {
    const limit = decodeLimit(options);
    const format =
      this.format === FORMAT.AUTO ? (isXz(bytes) ? FORMAT.XZ : FORMAT.ALONE) : this.format;
    let layout: LzmaLayout;
    if (format === FORMAT.XZ) layout = xzLayout(bytes, limit);
    else if (format === FORMAT.RAW) layout = lzma2Layout(bytes, limit);
    else layout = aloneLayout(bytes);
    if ("error" in layout)
      throw new DecodeError(`${NAME} codec: not valid ${formatName(format)} data: ${layout.error}`);
    if (layout.size > limit) {
      throw new DecodeError(
        `${NAME} codec: the data decodes to more than the ${limit} bytes this chunk may hold`,
      );
    }
    if (
      options.expectedSize !== undefined &&
      layout.size >= 0 &&
      layout.size !== options.expectedSize
    ) {
      throw new DecodeError(
        `${NAME} codec: the data decodes to ${layout.size} bytes; the chunk has ${options.expectedSize}`,
      );
    }
    const lib = await loadLzma();
    let out: Uint8Array;
    try {
      if (format === FORMAT.XZ) out = await lib.xz.decompress(bytes);
      else if (format === FORMAT.RAW) out = await lib.lzma2.decompress(bytes);
      else out = await lib.lzma.decompress(bytes);
    } catch (error) {
      throw new DecodeError(`${NAME} codec: ${messageOf(error)}`, { cause: error });
    }
    if (out.length > limit || (layout.size >= 0 && out.length !== layout.size)) {
      throw new DecodeError(
        `${NAME} codec: decoded ${out.length} bytes where the data states ${layout.size} and the chunk allows ${limit}`,
      );
    }
    if (options.expectedSize !== undefined && out.length !== options.expectedSize) {
      throw new DecodeError(
        `${NAME} codec: the data decodes to ${out.length} bytes; the chunk has ${options.expectedSize}`,
      );
    }
    // A copy: the native build's buffers live outside V8's heap, and Node 22+ refuses to transfer
    // them to another thread (a worker's decoded chunk moves to the main thread).
    return Uint8Array.from(out);
  }
}

function formatName(format: number): string {
  return format === FORMAT.XZ ? ".xz" : format === FORMAT.RAW ? "raw LZMA2" : ".lzma";
}

/**
 * The size an `.lzma` (alone) file states in its header, or -1 when it states none (Python
 * writes -1 and an end marker); such data can only be measured by decoding it, and its result
 * is checked against the chunk's bound afterwards.
 */
function aloneLayout(bytes: Uint8Array): LzmaLayout {
  if (bytes.length < 13) return { error: "shorter than an .lzma header" };
  const view = new DataView(bytes.buffer, bytes.byteOffset, 13);
  const low = view.getUint32(5, true);
  const high = view.getUint32(9, true);
  if (low === 0xffffffff && high === 0xffffffff) return { size: -1 };
  return { size: high * 2 ** 32 + low };
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

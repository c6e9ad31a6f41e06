import { checkArrayLimits } from "./array-limits.js";
import type { ArrayMetadata, V2ArrayDetails } from "./array-metadata.js";
import { withWhere } from "./array-metadata.js";
import { RegularChunkGrid, uniformChunkShape, validateChunkShape } from "./chunk-grid.js";
import { V2ChunkKeyEncoding } from "./chunk-key.js";
import { resolveDataTypeV2 } from "./dtype/registry.js";
import type { DataType, Endian } from "./dtype/types.js";
import { MetadataError } from "./errors.js";
import type { NamedConfig } from "./extension.js";
import { formatValue } from "./format-value.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";
import { requireField, requireObject, validateAttributes, validateShape } from "./validate.js";

/** The prefix under which numcodecs codecs are named in v3 metadata (as zarr-python 3 does). */
export const NUMCODECS_PREFIX = "numcodecs.";

function parseCodecConfig(json: JsonValue, where: string): JsonObject {
  if (!isJsonObject(json) || typeof json.id !== "string") {
    throw new MetadataError(
      `${where} must be an object with a string "id", got ${formatValue(json)}`,
    );
  }
  return json;
}

/** A numcodecs configuration (`{id, ...}`) as a v3-style codec entry named `numcodecs.<id>`. */
export function numcodecsToNamedConfig(config: JsonObject): NamedConfig {
  const { id, ...configuration } = config;
  return { name: `${NUMCODECS_PREFIX}${id as string}`, configuration, mustUnderstand: true };
}

/**
 * numcodecs object codecs that write a chunk as NumPy's `tolist()` with its shape: the logical
 * order, whatever the memory order, so an F-order array needs no transpose before them (unlike
 * vlen-utf8 and friends, which write elements in memory order).
 */
const LOGICAL_ORDER_NUMCODECS = new Set(["json2", "json", "msgpack2", "msgpack", "pickle"]);

/**
 * The codec list equivalent to a v2 array's layout: a transpose for F order, the filters, the
 * `bytes` codec with the dtype's byte order (omitted for variable-length types, whose first
 * filter serialises them), then the compressor.
 */
export function v2Codecs(details: V2ArrayDetails, dataType: DataType, ndim: number): NamedConfig[] {
  const codecs: NamedConfig[] = [];
  const objectCodec = dataType.itemSize === 0 ? details.filters?.[0]?.id : undefined;
  const logicalOrder = typeof objectCodec === "string" && LOGICAL_ORDER_NUMCODECS.has(objectCodec);
  if (details.order === "F" && ndim > 1 && !logicalOrder) {
    const order = Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
    codecs.push({ name: "transpose", configuration: { order }, mustUnderstand: true });
  }
  const filters = details.filters ?? [];
  // v2 filters see the array until one of them works on bytes; that is where the element
  // bytes are produced, so that is where the bytes codec goes.
  let split = filters.findIndex((filter) => BYTES_LEVEL_NUMCODECS.has(filter.id as string));
  if (split === -1) split = filters.length;
  for (const filter of filters.slice(0, split)) codecs.push(numcodecsToNamedConfig(filter));
  if (dataType.itemSize > 0) {
    const configuration: JsonObject = dataType.endianSensitive ? { endian: details.endian } : {};
    codecs.push({ name: "bytes", configuration, mustUnderstand: true });
  }
  for (const filter of filters.slice(split)) codecs.push(numcodecsToNamedConfig(filter));
  if (details.compressor) codecs.push(numcodecsToNamedConfig(details.compressor));
  return codecs;
}

/**
 * numcodecs codecs that work on bytes rather than on typed elements: compressors, checksums,
 * and byte shuffling. In a v2 filter list, the first of them marks where elements become bytes.
 */
export const BYTES_LEVEL_NUMCODECS: ReadonlySet<string> = new Set([
  "shuffle",
  "zlib",
  "gzip",
  "bz2",
  "lzma",
  "zstd",
  "lz4",
  "blosc",
  "crc32",
  "crc32c",
  "adler32",
  "fletcher32",
  "jenkins_lookup3",
  "base64",
]);

/**
 * Parses and validates v2 array metadata: the `.zarray` document and, if there is one, the
 * `.zattrs` document.
 * @throws MetadataError (or a subclass) naming the document and the field
 */
export function parseArrayMetadataV2(
  zarray: JsonValue,
  zattrs?: JsonValue,
  where = ".zarray",
): ArrayMetadata {
  const doc = requireObject(zarray, where);
  if (requireField(doc, "zarr_format", where) !== 2) {
    throw new MetadataError(
      `${where}: "zarr_format" must be 2, got ${formatValue(doc.zarr_format)}`,
    );
  }
  const shape = validateShape(requireField(doc, "shape", where), where);
  const chunks = validateChunkShape(requireField(doc, "chunks", where), shape.length, where);
  const dtype = requireField(doc, "dtype", where);
  const { dataType, endian } = resolveDataTypeV2(dtype, where);
  const order = doc.order ?? "C";
  if (order !== "C" && order !== "F")
    throw new MetadataError(`${where}: "order" must be "C" or "F", got ${formatValue(order)}`);
  const compressorJson = requireField(doc, "compressor", where);
  const compressor =
    compressorJson === null ? null : parseCodecConfig(compressorJson, `${where} compressor`);
  const filtersJson = doc.filters ?? null;
  if (filtersJson !== null && !Array.isArray(filtersJson))
    throw new MetadataError(`${where}: "filters" must be a list or null`);
  const filters =
    filtersJson === null
      ? null
      : filtersJson.map((f, i) => parseCodecConfig(f, `${where} filters[${i}]`));
  const separator = doc.dimension_separator;
  if (separator !== undefined && separator !== "/" && separator !== ".") {
    throw new MetadataError(
      `${where}: "dimension_separator" must be "." or "/", got ${formatValue(separator)}`,
    );
  }
  const fillValueJson = requireField(doc, "fill_value", where);
  let fillValue: unknown;
  try {
    fillValue = dataType.parseFill(fillValueJson, 2);
  } catch (error) {
    throw withWhere(error, where);
  }
  const v2: V2ArrayDetails = {
    order,
    endian,
    filters,
    compressor,
    dtype,
    dimensionSeparator: separator,
  };
  const chunkGrid = new RegularChunkGrid(chunks);
  const codecs = v2Codecs(v2, dataType, shape.length);
  checkArrayLimits({ dataType, chunkGrid, codecs }, where);
  return {
    zarrFormat: 2,
    shape,
    dataType,
    chunkGrid,
    chunkKeyEncoding: new V2ChunkKeyEncoding(separator ?? "."),
    fillValue,
    fillValueJson,
    codecs,
    dimensionNames: undefined,
    attributes: validateAttributes(zattrs ?? undefined, where.replace(/\.zarray$/, ".zattrs")),
    storageTransformers: [],
    extraFields: {},
    v2,
  };
}

/** The v2 `.zarray` document of array metadata (attributes go to `.zattrs` separately). */
export function arrayMetadataToV2Json(meta: ArrayMetadata): JsonObject {
  const v2 = meta.v2;
  if (!v2)
    throw new MetadataError("These array metadata are v3; convert them with convertToV2() first");
  const doc: JsonObject = {
    chunks: [...uniformChunkShape(meta.chunkGrid, "Zarr v2 metadata")],
    compressor: v2.compressor,
    dtype: v2.dtype,
    fill_value: meta.fillValueJson,
    filters: v2.filters,
    order: v2.order,
    shape: [...meta.shape],
    zarr_format: 2,
  };
  if (v2.dimensionSeparator !== undefined) doc.dimension_separator = v2.dimensionSeparator;
  return doc;
}

/** What a v3 codec list becomes in v2 terms. */
export interface V2Layout {
  /** Memory order of chunks. */
  order: "C" | "F";
  /** Byte order. */
  endian: Endian;
  /** numcodecs filters, or null. */
  filters: JsonObject[] | null;
  /** numcodecs compressor, or null. */
  compressor: JsonObject | null;
}

const V3_TO_NUMCODECS: Record<string, (config: JsonObject) => JsonObject> = {
  "vlen-utf8": () => ({ id: "vlen-utf8" }),
  "vlen-bytes": () => ({ id: "vlen-bytes" }),
  gzip: (c) => ({ id: "gzip", level: c.level ?? 5 }),
  zstd: (c) => ({ id: "zstd", level: c.level ?? 0, ...(c.checksum ? { checksum: true } : {}) }),
  crc32c: () => ({ id: "crc32c" }),
  blosc: (c) => ({
    id: "blosc",
    cname: c.cname ?? "lz4",
    clevel: c.clevel ?? 5,
    shuffle: { noshuffle: 0, shuffle: 1, bitshuffle: 2 }[c.shuffle as string] ?? c.shuffle ?? 1,
    blocksize: c.blocksize ?? 0,
  }),
};

function toNumcodecs(codec: NamedConfig): JsonObject | undefined {
  if (codec.name.startsWith(NUMCODECS_PREFIX))
    return { id: codec.name.slice(NUMCODECS_PREFIX.length), ...codec.configuration };
  return V3_TO_NUMCODECS[codec.name]?.(codec.configuration);
}

/**
 * numcodecs object codecs: in v2 they serialise object arrays (`|O`) as the first filter; in
 * a codec list they are the array-to-bytes codec, under `numcodecs.<id>` or, for vlen-utf8 and
 * vlen-bytes, under their v3 names.
 */
const OBJECT_NUMCODECS = new Set([
  "vlen-utf8",
  "vlen-bytes",
  "vlen-array",
  "json2",
  "json",
  "msgpack2",
  "msgpack",
  "pickle",
]);

function isSerializer(codec: NamedConfig): boolean {
  const { name } = codec;
  if (name === "bytes" || name === "vlen-utf8" || name === "vlen-bytes") return true;
  const id = name.startsWith(NUMCODECS_PREFIX) ? name.slice(NUMCODECS_PREFIX.length) : "";
  return OBJECT_NUMCODECS.has(id);
}

/**
 * Translates a v3 codec list into v2 terms (order, byte order, filters, compressor). The
 * array-to-bytes codec is `bytes` (which v2 expresses through the dtype's byte order) or an
 * object codec such as `vlen-utf8`, which becomes a v2 filter (the first, unless
 * array-to-array codecs come before it).
 * @throws MetadataError naming the codec that v2 cannot express (sharding, a transpose that
 *   is not a full reversal, more than one compressor)
 */
export function codecsToV2Layout(codecs: readonly NamedConfig[], ndim: number): V2Layout {
  const layout: V2Layout = { order: "C", endian: "little", filters: null, compressor: null };
  const filters: JsonObject[] = [];
  let i = 0;
  const first = codecs[0];
  if (first?.name === "transpose") {
    const order = first.configuration.order as number[];
    const reversed = Array.isArray(order) && order.every((axis, k) => axis === ndim - 1 - k);
    const identity = Array.isArray(order) && order.every((axis, k) => axis === k);
    if (!reversed && !identity) {
      throw new MetadataError(
        `Zarr v2 cannot express transpose order ${formatValue(order)}; only C or F order`,
      );
    }
    if (reversed && ndim > 1) layout.order = "F";
    i++;
  }
  // Every codec but the bytes codec and the last bytes-to-bytes codec becomes a v2 filter; the
  // last one becomes the compressor.
  const serializerAt = codecs.findIndex(isSerializer);
  const bytesAt = codecs[serializerAt]?.name === "bytes" ? serializerAt : -1;
  if (bytesAt !== -1)
    layout.endian = codecs[bytesAt].configuration.endian === "big" ? "big" : "little";
  const rest = codecs.slice(i).filter((_, k) => k + i !== bytesAt);
  const lastIsCompressor = serializerAt !== -1 && serializerAt < codecs.length - 1;
  const compressorEntry = lastIsCompressor ? rest.pop() : undefined;
  for (const codec of rest) {
    const filter = toNumcodecs(codec);
    if (!filter) throw new MetadataError(`Zarr v2 has no filter for the codec "${codec.name}"`);
    filters.push(filter);
  }
  if (compressorEntry) {
    const compressor = toNumcodecs(compressorEntry);
    if (!compressor)
      throw new MetadataError(`Zarr v2 has no compressor for the codec "${compressorEntry.name}"`);
    layout.compressor = compressor;
  }
  layout.filters = filters.length > 0 ? filters : null;
  return layout;
}

// The numcodecs mapping: private to the @z packages. v2.ts holds the public side, which the
// package entry re-exports whole.
import { formatValue } from "@z/errors";
import type { V2ArrayDetails } from "./array-metadata.js";
import type { DataType } from "./dtype/types.js";
import { MetadataError } from "./errors.js";
import type { NamedConfig } from "./extension.js";
import type { JsonObject } from "./json.js";
import type { V2Layout } from "./v2.js";

/** The prefix under which numcodecs codecs are named in v3 metadata (as zarr-python 3 does). */
export const NUMCODECS_PREFIX = "numcodecs.";

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
  const arrayFilters = filters.slice(0, split);
  for (const filter of arrayFilters) codecs.push(numcodecsToNamedConfig(filter));
  if (dataType.itemSize > 0) {
    const configuration: JsonObject = dataType.endianSensitive ? { endian: details.endian } : {};
    codecs.push({ name: "bytes", configuration, mustUnderstand: true });
  } else if (
    arrayFilters.length > 0 &&
    !arrayFilters.some((filter) => OBJECT_NUMCODECS.has(filter.id as string))
  ) {
    // An object array without an object codec whose filters turn its elements into numbers
    // (categorize, as zarr-python documents it): those numbers are stored as plain bytes, in
    // the byte order of the last filter's `astype`.
    const astype = arrayFilters[arrayFilters.length - 1].astype;
    const endian = typeof astype === "string" && astype.startsWith(">") ? "big" : "little";
    codecs.push({ name: "bytes", configuration: { endian }, mustUnderstand: true });
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

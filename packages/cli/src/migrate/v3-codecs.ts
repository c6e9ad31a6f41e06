import type { JsonObject, JsonValue } from "@z/zarr";
import type { MigratedDataType } from "./v3-data-type.js";

/** A v2 codec (filter or compressor) zarr-python 3.1 has no v3 codec of the needed kind for. */
export class UnmigratableCodec extends Error {}

/** numcodecs codecs zarr-python 3.1 has as `numcodecs.<id>` array-to-array codecs. */
const ARRAY_TO_ARRAY = new Set([
  "delta",
  "bitround",
  "fixedscaleoffset",
  "quantize",
  "packbits",
  "astype",
]);

/** numcodecs codecs zarr-python 3.1 has as `numcodecs.<id>` bytes-to-bytes codecs. */
const BYTES_TO_BYTES = new Set([
  "blosc",
  "lz4",
  "zstd",
  "zlib",
  "gzip",
  "bz2",
  "lzma",
  "shuffle",
  "crc32",
  "crc32c",
  "adler32",
  "fletcher32",
  "jenkins_lookup3",
]);

/** numcodecs codecs zarr-python 3.1 has as `numcodecs.<id>` array-to-bytes codecs. */
const ARRAY_TO_BYTES = new Set(["pcodec", "zfpy"]);

const BLOSC_SHUFFLES = ["noshuffle", "shuffle", "bitshuffle"];

function kindOf(id: string): string {
  if (ARRAY_TO_ARRAY.has(id)) return "an array-to-array codec";
  if (BYTES_TO_BYTES.has(id)) return "a bytes-to-bytes codec";
  if (ARRAY_TO_BYTES.has(id)) return "an array-to-bytes codec";
  return "";
}

/** The `numcodecs.<id>` codec of a v2 codec: its configuration without the `id`. */
function numcodecsEntry(codec: JsonObject, want: string): JsonObject {
  const { id, ...configuration } = codec;
  const kind = kindOf(String(id));
  if (kind === "")
    throw new UnmigratableCodec(`zarr-python 3.1 has no v3 codec numcodecs.${String(id)}`);
  if (kind !== want) throw new UnmigratableCodec(`numcodecs.${String(id)} is ${kind}, not ${want}`);
  return { name: `numcodecs.${String(id)}`, configuration };
}

/** NumPy's name of a native type (`float64`) or, for others, the v2 string. */
function numpyName(dtype: JsonValue, type: MigratedDataType): JsonValue {
  return typeof type.dataType === "string" && type.endian !== "big" ? type.dataType : dtype;
}

/**
 * A v2 filter as zarr-python 3.1 migrates it: `numcodecs.<id>` with the filter's own
 * configuration, filled in where zarr-python fills it in (a `fixedscaleoffset` or `quantize`
 * without `dtype`, an `astype` without `decode_dtype`).
 * @throws UnmigratableCodec when it is not one of numcodecs' array-to-array codecs
 */
export function migrateFilter(filter: JsonObject, dtype: JsonValue, type: MigratedDataType) {
  const entry = numcodecsEntry(filter, "an array-to-array codec");
  const config = entry.configuration as JsonObject;
  const missing = (key: string) => config[key] === undefined || config[key] === null;
  if ((filter.id === "fixedscaleoffset" || filter.id === "quantize") && missing("dtype"))
    config.dtype = numpyName(dtype, type);
  if (filter.id === "astype" && missing("decode_dtype"))
    config.decode_dtype = numpyName(dtype, type);
  return entry;
}

/**
 * The serializer of a v2 compressor that is an array-to-bytes codec in v3 (`zfpy`, `pcodec`:
 * numcodecs hands them the chunk's elements), as zarrs migrates it: `numcodecs.<id>` in place
 * of the `bytes` codec. Undefined for other compressors. zarr-python 3.1 refuses such arrays.
 */
export function compressorSerializer(compressor: JsonObject): JsonObject | undefined {
  return ARRAY_TO_BYTES.has(String(compressor.id))
    ? numcodecsEntry(compressor, "an array-to-bytes codec")
    : undefined;
}

/**
 * A v2 compressor as zarr-python 3.1 migrates it: blosc, zstd and gzip as the v3 codecs of
 * those names (blosc's `typesize` is the element size; numcodecs' automatic shuffle, -1, which
 * zarr-python refuses, is written as the shuffle numcodecs chose: bits for one-byte elements,
 * bytes otherwise); every other one as `numcodecs.<id>` (a `shuffle` without `elementsize`
 * gets the element size).
 * @throws UnmigratableCodec when it is not one of numcodecs' bytes-to-bytes codecs
 */
export function migrateCompressor(compressor: JsonObject, type: MigratedDataType): JsonObject {
  const c = compressor;
  switch (c.id) {
    case "blosc": {
      const shuffle = c.shuffle === -1 ? (type.itemSize === 1 ? 2 : 1) : (c.shuffle ?? 1);
      const name = BLOSC_SHUFFLES[shuffle as number];
      if (name === undefined)
        throw new UnmigratableCodec(
          `blosc's shuffle must be -1, 0, 1 or 2, got ${String(c.shuffle)}`,
        );
      return {
        name: "blosc",
        configuration: {
          typesize: type.itemSize,
          cname: c.cname ?? "lz4",
          clevel: c.clevel ?? 5,
          shuffle: name,
          blocksize: c.blocksize ?? 0,
        },
      };
    }
    case "zstd":
      return {
        name: "zstd",
        configuration: { level: c.level ?? 1, checksum: c.checksum ?? false },
      };
    case "gzip":
      return { name: "gzip", configuration: { level: c.level ?? 1 } };
    default: {
      const entry = numcodecsEntry(c, "a bytes-to-bytes codec");
      const config = entry.configuration as JsonObject;
      if (c.id === "shuffle" && (config.elementsize === undefined || config.elementsize === null))
        config.elementsize = type.itemSize;
      return entry;
    }
  }
}

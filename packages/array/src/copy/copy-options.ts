import type { JsonObject } from "@z/metadata";
import type { ArrayOptions } from "../create/array-metadata-builder.js";
import { type CodecSpec, toNamedConfig } from "../create/codec-specs.js";
import type { ZarrArray } from "../nodes/array.js";
import { copyLayout } from "./copy-layout.js";

// The creation options of an array's copy in either format, with the defaults `zarr copy`
// uses: shared by copyNode, fromArray and the command line, so each conversion has one home.

/** What a copy of an array changes (see {@link copyArrayOptions}); nothing by default. */
export interface ArrayCopyChanges {
  /** The format of the copy (default the source's). */
  zarrFormat?: 2 | 3;
  /**
   * New bytes-to-bytes codecs (compressors, checksums) for the innermost chunks, `[]` for
   * none (default: the source's, under their v3 names in a v3 copy).
   */
  compressors?: readonly CodecSpec[];
  /** A new (inner) chunk shape (default the source's). */
  chunks?: number[];
}

/** xarray's v2 convention for dimension names, which v3 holds in `dimension_names`. */
const XARRAY_DIMS = "_ARRAY_DIMENSIONS";

/**
 * The attributes and dimension names of a copy: v3 dimension names become xarray's
 * `_ARRAY_DIMENSIONS` attribute in v2, and that attribute becomes dimension names in v3.
 */
function dimensionsFor(
  source: ZarrArray,
  format: 2 | 3,
): { attributes: JsonObject; dimensionNames?: (string | null)[] } {
  const attributes = source.attrs;
  if (format === 2) {
    if (source.dimensionNames && !(XARRAY_DIMS in attributes))
      attributes[XARRAY_DIMS] = source.dimensionNames;
    return { attributes };
  }
  const names = source.dimensionNames ?? (attributes[XARRAY_DIMS] as (string | null)[] | undefined);
  if (source.zarrFormat === 2 && Array.isArray(names) && names.length === source.ndim) {
    delete attributes[XARRAY_DIMS];
    return { attributes, dimensionNames: names };
  }
  return { attributes, dimensionNames: source.dimensionNames };
}

/** How the copy names its chunk keys: the source's way when the format stays. */
function keyEncodingFor(source: ZarrArray, format: 2 | 3): Partial<ArrayOptions> {
  const meta = source.metadata;
  if (format !== meta.zarrFormat) return {};
  if (format === 2) return { dimensionSeparator: meta.v2?.dimensionSeparator ?? "." };
  const { name, separator } = meta.chunkKeyEncoding;
  return name === "default" || name === "v2"
    ? { chunkKeyEncoding: { name, separator: separator as "/" | "." } }
    : {};
}

/**
 * The fill value of a copy. A v2 `null` fill value stays null in v2; v3 needs one, and takes
 * the data type's default (what zarr-python 3 reads missing chunks of such arrays as). A v2
 * object array's `0` (zarr-python 2's default) becomes, in a v3 copy of strings or bytes, the
 * empty one, as numcodecs writes `0` elements of such arrays.
 */
function fillValueFor(source: ZarrArray, format: 2 | 3): unknown {
  const meta = source.metadata;
  if (format === 2) return meta.fillValueJson === null ? null : meta.fillValue;
  if (meta.fillValue !== null && meta.fillValue !== undefined) return meta.fillValue;
  // The type's own v3 form of "no fill value" (v2 object arrays hold null: "" for strings).
  const t = meta.dataType;
  return t.parseFill(t.fillToJson(t.defaultFill as never, 3), 3);
}

/**
 * The creation options (as `createArray` takes them) of a copy of `source`, with the defaults
 * `zarr copy` uses:
 * - the data type, shape and fill value stay; a v2 object array becomes, in v3, the `string`
 *   (vlen-utf8) or `bytes` (vlen-bytes) type, or for other object codecs (json2, msgpack2,
 *   vlen-array) an object array with that codec as its serializer; a null v2 fill value takes
 *   the v3 type's default, a `0` one of strings or bytes the empty value;
 * - the chunk grid and codecs stay, numcodecs codecs under their v3 names in a v3 copy
 *   (`numcodecs.blosc` becomes `blosc`, ...); in a v2 copy, which has no shards, a sharded
 *   array's innermost chunks become its chunks, with their codecs; `changes` may set new
 *   compressors for the innermost chunks, or a new (inner) chunk shape, the shards of a v3
 *   copy then rounded up to a multiple of it;
 * - the attributes stay; dimension names and xarray's `_ARRAY_DIMENSIONS` attribute trade
 *   places between v3 and v2; chunk key encodings stay within a format.
 * Nothing is checked here: `createArray` and {@link copyNode} check the options they are given.
 * @example
 * ```ts
 * // The defaults of a v3 copy, with gzip for every chunk.
 * const options = copyArrayOptions(source, { zarrFormat: 3, compressors: [{ name: "gzip", configuration: { level: 5 } }] });
 * ```
 * @throws ChunkGridError for chunks of different shapes (a rectilinear grid) copied to v2 or
 *   with new chunks; MetadataError when shards must be taken apart but codecs (a transpose)
 *   work on whole shards
 */
export function copyArrayOptions(source: ZarrArray, changes: ArrayCopyChanges = {}): ArrayOptions {
  const format = changes.zarrFormat ?? source.zarrFormat;
  const meta = source.metadata;
  return {
    shape: meta.shape,
    dtype: meta.dataType,
    ...copyLayout(source, {
      format,
      compressors: changes.compressors?.map(toNamedConfig),
      chunks: changes.chunks,
    }),
    fillValue: fillValueFor(source, format),
    zarrFormat: format,
    ...keyEncodingFor(source, format),
    ...dimensionsFor(source, format),
  };
}

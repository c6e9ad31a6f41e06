import type { JsonObject } from "@z/metadata";
import { shardingOf } from "../create/sharding-config.js";
import type { ZarrArray } from "./array.js";
import { formatCodec, formatRows, infoRows } from "./info-rows.js";

/** A summary of an array, as zarr-python's `Array.info`; `String(info)` prints it as a table. */
export interface ArrayInfo {
  /** "Array". */
  type: "Array";
  /** 2 or 3. */
  zarrFormat: 2 | 3;
  /** The node path. */
  path: string;
  /** The data type's name (and the v2 type string). */
  dataType: string;
  /** The shape. */
  shape: number[];
  /** The chunk shape (inner chunks of a sharded array; the largest chunk of a `rectilinear` grid). */
  chunks: number[];
  /** The chunk grid's metadata, for grids other than `regular` (whose chunks differ in shape). */
  chunkGrid?: JsonObject;
  /** The shard shape, for sharded arrays. */
  shards?: number[];
  /** The number of chunks (or shards) in the grid. */
  gridChunks: number;
  /** The fill value as JSON. */
  fillValue: unknown;
  /** Codecs in order, written as `name(key=value, ...)`. */
  codecs: string[];
  /** v2 memory order. */
  order?: "C" | "F";
  /** Dimension names. */
  dimensionNames?: (string | null)[];
  /** Attribute names. */
  attributes: string[];
  /** Bytes of the elements uncompressed (0 for variable-length types). */
  nbytes: number;
  /** The table text. */
  toString(): string;
}

/** The summary of an array (see {@link ArrayInfo}). */
export function arrayInfo(array: ZarrArray): ArrayInfo {
  const meta = array.metadata;
  const grid = meta.chunkGrid.gridShape(meta.shape);
  const info: ArrayInfo = {
    type: "Array",
    zarrFormat: meta.zarrFormat,
    path: `/${array.path}`,
    dataType: meta.v2 ? `${meta.dataType.name} (${String(meta.v2.dtype)})` : meta.dataType.name,
    shape: array.shape,
    chunks: array.chunks,
    chunkGrid: meta.chunkGrid.name === "regular" ? undefined : meta.chunkGrid.toJson(),
    shards: shardingOf(meta) ? array.shards : undefined,
    gridChunks: grid.reduce((a, b) => a * b, 1),
    fillValue: meta.fillValueJson === null ? null : meta.dataType.toJsonElement(meta.fillValue),
    codecs: meta.codecs.map(formatCodec),
    order: meta.v2?.order,
    dimensionNames: meta.dimensionNames,
    attributes: Object.keys(meta.attributes),
    nbytes: array.nbytes,
    toString: () => formatRows(infoRows(info)),
  };
  return info;
}

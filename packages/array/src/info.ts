import type { JsonObject, NamedConfig } from "@z/metadata";
import { formatValue } from "@z/metadata/internal";
import type { ZarrArray } from "./array.js";
import { shardingOf } from "./sharding-config.js";

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

/** A codec entry as one line: `gzip(level=5)`. */
export function formatCodec(codec: NamedConfig): string {
  const config = Object.entries(codec.configuration)
    .map(([key, value]) => `${key}=${formatValue(value)}`)
    .join(", ");
  return `${codec.name}(${config})`;
}

/** A shape as Python prints a tuple: `(10, 20)`, `(5,)`, `()`. */
export function formatShape(shape: readonly number[]): string {
  return shape.length === 1 ? `(${shape[0]},)` : `(${shape.join(", ")})`;
}

/** Formats rows as an aligned `key : value` table. */
export function formatRows(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)} : ${v}`).join("\n");
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

/** A chunk grid's metadata as one line: `rectilinear(kind=inline, chunk_shapes=[[10, 20, 5], 8])`. */
export function formatChunkGrid(grid: JsonObject): string {
  return formatCodec({
    name: String(grid.name),
    configuration: (grid.configuration ?? {}) as JsonObject,
    mustUnderstand: true,
  });
}

/** The rows `String(info)` prints. */
export function infoRows(info: ArrayInfo): [string, string][] {
  const rows: [string, string][] = [
    ["Type", info.type],
    ["Zarr format", String(info.zarrFormat)],
    ["Path", info.path],
    ["Data type", info.dataType],
    ["Shape", formatShape(info.shape)],
  ];
  if (info.chunkGrid) {
    rows.push(["Chunk grid", formatChunkGrid(info.chunkGrid)]);
    rows.push(["Largest chunk", formatShape(info.chunks)]);
  } else {
    rows.push(["Chunk shape", formatShape(info.chunks)]);
  }
  if (info.shards) rows.push(["Shard shape", formatShape(info.shards)]);
  rows.push(["Fill value", formatValue(info.fillValue)]);
  if (info.order) rows.push(["Order", info.order]);
  rows.push(["Codecs", info.codecs.join(" -> ")]);
  if (info.dimensionNames)
    rows.push(["Dimension names", info.dimensionNames.map((n) => n ?? "-").join(", ")]);
  rows.push(["Attributes", info.attributes.length === 0 ? "none" : info.attributes.join(", ")]);
  rows.push(["Uncompressed size", `${info.nbytes} bytes`]);
  return rows;
}

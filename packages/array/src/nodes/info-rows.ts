// The rows and formatting of `info`, shared by `arr.info`, the h5py-style layer and the CLI.
import { formatValue } from "@z/errors";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { ArrayInfo } from "./info.js";

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

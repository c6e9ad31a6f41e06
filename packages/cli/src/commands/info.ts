import { type Group, isListable, open, prefixOf, ZarrArray } from "@z/zarr";
import { formatBytes, formatCodec, formatShape } from "../format.js";
import { openLocation } from "../location.js";
import type { Output } from "../output.js";

/** Counts the stored chunks of an array (keys under it that decode as chunk keys). */
async function countStoredChunks(array: ZarrArray): Promise<number | undefined> {
  const store = array.store;
  if (!isListable(store)) return undefined;
  const prefix = prefixOf(array.path);
  let count = 0;
  for await (const key of store.listPrefix(prefix)) {
    const relative = key.slice(prefix.length);
    const coords =
      array.metadata.chunkKeyEncoding.decode(relative, array.ndim) ??
      (array.metadata.v2 ? decodeNested(relative, array.ndim) : undefined);
    if (coords) count++;
  }
  return count;
}

function decodeNested(key: string, ndim: number): number[] | undefined {
  const parts = key.split("/");
  return parts.length === ndim && parts.every((p) => /^\d+$/.test(p)) ? parts.map(Number) : undefined;
}

function rows(entries: [string, string][]): string {
  const width = Math.max(...entries.map(([k]) => k.length));
  return `${entries.map(([k, v]) => `${k.padEnd(width)} : ${v}`).join("\n")}\n`;
}

function attributeSummary(attrs: Record<string, unknown>): string {
  const keys = Object.keys(attrs);
  return keys.length === 0 ? "none" : `${keys.length} (${keys.join(", ")})`;
}

async function arrayInfo(array: ZarrArray): Promise<[string, string][]> {
  const meta = array.metadata;
  const grid = meta.chunkGrid.gridShape(meta.shape);
  const total = grid.reduce((a, b) => a * b, 1);
  const stored = await countStoredChunks(array);
  const entries: [string, string][] = [
    ["Type", "Array"],
    ["Zarr format", String(meta.zarrFormat)],
    ["Path", `/${array.path}`],
    ["Shape", formatShape(meta.shape)],
    ["Chunk shape", formatShape(meta.chunkGrid.chunkShape)],
    ["Chunks", `${total} in a ${formatShape(grid)} grid${stored === undefined ? "" : `, ${stored} stored`}`],
    ["Data type", meta.v2 ? `${meta.dataType.name} (${String(meta.v2.dtype)})` : meta.dataType.name],
    ["Fill value", meta.fillValueJson === null ? "null" : JSON.stringify(meta.dataType.toJsonElement(meta.fillValue))],
  ];
  if (meta.v2) {
    entries.push(["Order", meta.v2.order]);
    entries.push(["Filters", meta.v2.filters ? meta.v2.filters.map((f) => JSON.stringify(f)).join(", ") : "none"]);
    entries.push(["Compressor", meta.v2.compressor ? JSON.stringify(meta.v2.compressor) : "none"]);
  } else {
    entries.push(["Codecs", meta.codecs.map(formatCodec).join(" -> ")]);
    entries.push(["Chunk key encoding", `${meta.chunkKeyEncoding.name} (separator "${meta.chunkKeyEncoding.separator}")`]);
  }
  if (meta.dimensionNames) entries.push(["Dimension names", meta.dimensionNames.map((n) => n ?? "-").join(", ")]);
  const itemSize = meta.dataType.itemSize;
  if (itemSize > 0) entries.push(["Uncompressed size", formatBytes(array.size * itemSize)]);
  entries.push(["Attributes", attributeSummary(meta.attributes)]);
  return entries;
}

async function groupInfo(group: Group): Promise<[string, string][]> {
  const entries: [string, string][] = [
    ["Type", "Group"],
    ["Zarr format", String(group.zarrFormat)],
    ["Path", `/${group.path}`],
    ["Attributes", attributeSummary(group.metadata.attributes)],
  ];
  if (isListable(group.store)) {
    const members = await group.members();
    const arrays = members.filter(([, node]) => node instanceof ZarrArray).length;
    entries.push(["Members", `${members.length} (${arrays} arrays, ${members.length - arrays} groups)`]);
  }
  return entries;
}

/** `zarr info <location> [--path P]`: the node's metadata, summarised for a person. */
export async function infoCommand(output: Output, location: string, path: string | undefined): Promise<void> {
  const store = await openLocation(location);
  const node = await open(store, { path });
  output.out(rows(node instanceof ZarrArray ? await arrayInfo(node) : await groupInfo(node)));
}

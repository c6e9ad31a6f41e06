import { formatRows, type Group, infoRows, isListable, open, prefixOf, ZarrArray } from "@z/zarr";
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
  return parts.length === ndim && parts.every((p) => /^\d+$/.test(p))
    ? parts.map(Number)
    : undefined;
}

function attributeSummary(attrs: Record<string, unknown>): string {
  const keys = Object.keys(attrs);
  return keys.length === 0 ? "none" : `${keys.length} (${keys.join(", ")})`;
}

async function arrayRows(array: ZarrArray): Promise<[string, string][]> {
  const info = array.info;
  const stored = await countStoredChunks(array);
  const rows = infoRows(info);
  const at = rows.findIndex(([key]) => key === "Fill value");
  rows.splice(at, 0, [
    "Chunks",
    `${info.gridChunks} in the grid${stored === undefined ? "" : `, ${stored} stored`}`,
  ]);
  return rows;
}

async function groupRows(group: Group): Promise<[string, string][]> {
  const rows: [string, string][] = [
    ["Type", "Group"],
    ["Zarr format", String(group.zarrFormat)],
    ["Path", `/${group.path}`],
    ["Attributes", attributeSummary(group.metadata.attributes)],
  ];
  if (isListable(group.store)) {
    const members = await group.members();
    const arrays = members.filter(([, node]) => node instanceof ZarrArray).length;
    rows.push([
      "Members",
      `${members.length} (${arrays} arrays, ${members.length - arrays} groups)`,
    ]);
  }
  return rows;
}

/** `zarr info <location> [--path P]`: the node's metadata, summarised for a person. */
export async function infoCommand(
  output: Output,
  location: string,
  path: string | undefined,
): Promise<void> {
  const store = await openLocation(location);
  const node = await open(store, { path });
  output.out(
    `${formatRows(node instanceof ZarrArray ? await arrayRows(node) : await groupRows(node))}\n`,
  );
}

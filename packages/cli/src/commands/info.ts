import { formatRows, infoRows, isListable, open, prefixOf, ZarrArray, ZarrGroup } from "@z/zarr";
import { openLocation } from "../location.js";
import { arrayJson, groupJson } from "../node-json.js";
import type { Output } from "../output.js";
import { prettyJson } from "../pretty-json.js";
import { nodeStats } from "../stats/node-stats.js";
import { statsJson, statsRows } from "../stats/stats-report.js";

/** Options of `zarr info`. */
export interface InfoOptions {
  /** The node's path in the hierarchy. */
  path?: string;
  /** Print one JSON object instead of the table. */
  json?: boolean;
  /** Read an array's values and add their statistics (`--stats`, `--bins`). */
  stats?: boolean;
  /** Histogram bins of the statistics (default 10). */
  bins?: number;
}

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

async function arrayRows(
  array: ZarrArray,
  stored: number | undefined,
): Promise<[string, string][]> {
  const info = array.info;
  const rows = infoRows(info);
  const at = rows.findIndex(([key]) => key === "Fill value");
  rows.splice(at, 0, [
    "Chunks",
    `${info.gridChunks} in the grid${stored === undefined ? "" : `, ${stored} stored`}`,
  ]);
  return rows;
}

/** A group's members by kind; `unreadable` (members that cannot be opened) only when there are some. */
interface MemberCounts {
  arrays: number;
  groups: number;
  unreadable?: number;
}

/** Counts a group's members by kind, when the group can list them. */
async function memberCounts(group: ZarrGroup): Promise<MemberCounts | undefined> {
  if (!isListable(group.store) && !group.consolidated) return undefined;
  const members = await group.members();
  const arrays = members.filter(([, node]) => node instanceof ZarrArray).length;
  // Members that cannot be opened are neither.
  const groups = members.filter(([, node]) => node instanceof ZarrGroup).length;
  const unreadable = members.length - arrays - groups;
  return unreadable > 0 ? { arrays, groups, unreadable } : { arrays, groups };
}

function groupRows(group: ZarrGroup, members: MemberCounts | undefined) {
  const rows: [string, string][] = [
    ["Type", "Group"],
    ["Zarr format", String(group.zarrFormat)],
    ["Path", `/${group.path}`],
    ["Attributes", attributeSummary(group.metadata.attributes)],
  ];
  if (members) {
    const { arrays, groups, unreadable = 0 } = members;
    const bad = unreadable > 0 ? `, ${unreadable} that cannot be opened` : "";
    rows.push([
      "Members",
      `${arrays + groups + unreadable} (${arrays} arrays, ${groups} groups${bad})`,
    ]);
  }
  return rows;
}

/**
 * The object `zarr info --json` prints for an array: the fields of `tree --json` plus order,
 * codecs, dimension names, attributes, chunk counts and the uncompressed size.
 */
export async function arrayInfoJson(array: ZarrArray): Promise<Record<string, unknown>> {
  const info = array.info;
  return {
    ...arrayJson(array),
    order: info.order ?? null,
    codecs: array.metadata.codecs.map(({ name, configuration }) => ({ name, configuration })),
    dimension_names: info.dimensionNames ?? null,
    attributes: array.attrs,
    chunks_in_grid: info.gridChunks,
    chunks_stored: (await countStoredChunks(array)) ?? null,
    nbytes: info.nbytes,
  };
}

/** The object `zarr info --json` prints for a group: format, path, attributes, member counts. */
export async function groupInfoJson(group: ZarrGroup): Promise<Record<string, unknown>> {
  return {
    ...groupJson(group),
    attributes: group.attrs,
    consolidated: group.consolidated !== undefined,
    members: (await memberCounts(group)) ?? null,
  };
}

/**
 * `zarr info <location> [--path P] [--json] [--stats]`: the node's metadata, summarised for a
 * person or as JSON; with `stats`, an array's values summarised too (see `arrayStats`).
 */
export async function infoCommand(
  output: Output,
  location: string,
  options: InfoOptions | string | undefined = {},
): Promise<void> {
  const { path, json, ...stats } =
    typeof options === "object" ? options : { path: options, json: false };
  const store = await openLocation(location);
  const node = await open(store, { path });
  const values = stats.stats ? await nodeStats(node, stats.bins) : undefined;
  if (json) {
    const object =
      node instanceof ZarrArray ? await arrayInfoJson(node) : await groupInfoJson(node);
    if (values) object.stats = statsJson(values);
    output.out(`${prettyJson(object)}\n`);
    return;
  }
  const rows =
    node instanceof ZarrArray
      ? await arrayRows(node, await countStoredChunks(node))
      : groupRows(node, await memberCounts(node));
  if (values) rows.push(...statsRows(values));
  output.out(`${formatRows(rows)}\n`);
}

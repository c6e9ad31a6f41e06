import { type JsonValue, type Listable, parseJson, prefixOf, type Readable } from "@z/zarr";
import type { V2Documents } from "./v3-documents.js";

/** The v2 metadata documents a node can have, and the one consolidated metadata document. */
export const V2_METADATA_KEYS = [".zarray", ".zgroup", ".zattrs", ".zmetadata"] as const;

/** A node of a v2 hierarchy: its documents, and what of its metadata is stored. */
export interface V2Node extends V2Documents {
  /** The v2 metadata documents stored for it (full keys). */
  v2Keys: string[];
  /** The bytes of a `zarr.json` already there, if any. */
  existingV3?: Uint8Array;
}

async function readJson(store: Readable, key: string): Promise<JsonValue | undefined> {
  const bytes = await store.get(key);
  return bytes === undefined ? undefined : parseJson(bytes, key);
}

/** The node at `path` if it has v2 metadata, else undefined. */
async function v2NodeAt(store: Readable, path: string): Promise<V2Node | undefined> {
  const prefix = prefixOf(path);
  const [zarray, zgroup] = await Promise.all([
    readJson(store, `${prefix}.zarray`),
    store.get(`${prefix}.zgroup`),
  ]);
  if (zarray === undefined && zgroup === undefined) return undefined;
  const [zattrs, consolidated, existingV3] = await Promise.all([
    readJson(store, `${prefix}.zattrs`),
    store.get(`${prefix}.zmetadata`),
    store.get(`${prefix}zarr.json`),
  ]);
  const present = {
    ".zarray": zarray !== undefined,
    ".zgroup": zgroup !== undefined && zarray === undefined,
    ".zattrs": zattrs !== undefined,
    ".zmetadata": consolidated !== undefined && zarray === undefined,
  };
  const v2Keys = Object.entries(present)
    .filter(([, here]) => here)
    .map(([name]) => `${prefix}${name}`);
  return { path, zarray, zattrs, v2Keys, existingV3 };
}

/**
 * Every node of the v2 hierarchy at the root of `store`, parents before children: the root
 * and, below each group, the members that have v2 metadata of their own (`.zarray` or
 * `.zgroup`), as zarr-python opens a v2 hierarchy. Consolidated metadata is not consulted:
 * the documents of each node are read.
 * @returns an empty list when the root has no v2 metadata
 */
export async function findV2Nodes(store: Readable & Listable): Promise<V2Node[]> {
  const root = await v2NodeAt(store, "");
  if (root === undefined) return [];
  const nodes: V2Node[] = [];
  const queue: V2Node[] = [root];
  while (queue.length > 0) {
    const node = queue.shift() as V2Node;
    nodes.push(node);
    if (node.zarray !== undefined) continue;
    const { prefixes } = await store.listDir(prefixOf(node.path));
    const names = prefixes.map((p) => p.slice(0, -1)).sort();
    const children = await Promise.all(names.map((path) => v2NodeAt(store, path)));
    for (const child of children) if (child) queue.push(child);
  }
  return nodes;
}

import type { Readable } from "@z/store-core";
import type { ChunkCache } from "../cache/chunk-cache.js";
import { type ArrayState, ZarrArray } from "../nodes/array.js";
import { nodeFromMetadata, type ZarrGroup } from "../nodes/group.js";
import type { NodeMetadata } from "../nodes/node-documents.js";
import { type AccessMode, storeForMode } from "../nodes/open-mode.js";
import { prepareModeTarget } from "./mode-targets.js";
import { type NodeSpec, writeNodes } from "./write-nodes.js";

// What the openers load on first use for the modes that create ("a", "w", "w-"): the creation
// of one array or group, apart from create-nodes.ts. A bundler puts a file that the first load reaches
// (the umbrella names createArray, so it reaches create-nodes.ts) into the first load as soon
// as a lazy feature uses part of it; creating through create-nodes.ts from here would bring its
// group code into every app that opens arrays.

/**
 * Creates the array `spec` describes at `path` as `mode` says (see `prepareModeTarget`), in a
 * store already entered.
 */
export async function createArrayWithMode(
  entered: Readable,
  path: string,
  spec: NodeSpec & { kind: "array" },
  options: { mode?: AccessMode; signal?: AbortSignal; cache?: ChunkCache },
): Promise<ZarrArray> {
  const s = storeForMode(entered, options.mode, path);
  const overwrite = await prepareModeTarget(s, path, options.mode, options);
  const { arrays } = await writeNodes(s, [[path, spec]], { overwrite, signal: options.signal });
  const array = arrays.get(path) as ZarrArray;
  const { cache } = options;
  if (!cache) return array;
  // The same array object with the cache: its (private) consolidated holders carried over.
  const { consolidatedHolders } = array as unknown as ArrayState;
  return new ZarrArray(s, path, array.metadata, { consolidatedHolders, cache });
}

/**
 * Creates the group `spec` describes at `path` as `mode` says (see `prepareModeTarget`), in a
 * store already entered.
 */
export async function createGroupWithMode(
  entered: Readable,
  path: string,
  spec: NodeSpec & { kind: "group" },
  options: { mode?: AccessMode; signal?: AbortSignal; cache?: ChunkCache },
): Promise<ZarrGroup> {
  const s = storeForMode(entered, options.mode, path);
  const overwrite = await prepareModeTarget(s, path, options.mode, options);
  const { written } = await writeNodes(s, [[path, spec]], { overwrite, signal: options.signal });
  const node = written.find(([at]) => at === path)?.[1] as NodeMetadata;
  return (await nodeFromMetadata(s, path, node, { cache: options.cache })) as ZarrGroup;
}

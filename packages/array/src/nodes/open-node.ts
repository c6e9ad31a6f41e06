import { afterLoading } from "@z/codecs";
import { NotFoundError, normalizePath, type Readable, type StoreLike } from "@z/store-core";
import type { ChunkCache } from "../cache/chunk-cache.js";
import { ContainsArrayError, ContainsGroupError } from "../errors.js";
import { logNode, nodeDetails } from "../logging/node-logging.js";
import { enterStore } from "../logging/store-logging-scope.js";
import { ZarrArray } from "./array.js";
import type { ZarrGroup } from "./group.js";
import { readNodeMetadata } from "./metadata-io.js";
import type { NodeMetadata } from "./node-documents.js";
import type { OpenOptions } from "./open-array.js";
import { storeForMode } from "./open-mode.js";

// The opening path shared by open, openArray and openGroup; not part of the package's API. Like
// open-array.ts, it must not import the group code (see there).

/** Builds the array object of array metadata, once the codecs it names are loaded. */
export function arrayOf(
  s: Readable,
  path: string,
  node: NodeMetadata & { kind: "array" },
  cache?: ChunkCache,
): Promise<ZarrArray> {
  return afterLoading(() => new ZarrArray(s, path, node.metadata, { cache }));
}

/**
 * Opens (or, as `options.mode` says, creates) the node at `options.path`: the shared path of
 * `open`, `openArray` and `openGroup`. `create` makes the node a mode creates; `build` makes
 * the object of the metadata found. openArray passes a `build` that knows only arrays, so that
 * an app that only opens arrays does not load the group code (groups, consolidated metadata).
 */
export async function openNode(
  store: StoreLike | string,
  options: OpenOptions,
  create: (s: Readable, path: string) => Promise<ZarrArray | ZarrGroup>,
  build: (s: Readable, path: string, node: NodeMetadata) => Promise<ZarrArray | ZarrGroup>,
): Promise<ZarrArray | ZarrGroup> {
  const path = normalizePath(options.path);
  const { mode } = options;
  const s = storeForMode(await enterStore(store), mode, path);
  if (mode === "w" || mode === "w-") return create(s, path);
  let node = await readNodeMetadata(s, path, options);
  if (!node && mode === "a") {
    try {
      return await create(s, path);
    } catch (error) {
      // Another writer created it meanwhile: open theirs, as if it had been there.
      if (!(error instanceof ContainsArrayError || error instanceof ContainsGroupError))
        throw error;
      node = await readNodeMetadata(s, path, options);
    }
  }
  checkNodeKind(path, node, options.kind);
  const opened = await build(s, path, node);
  logNode("opened", node.kind, path, () => nodeDetails(node));
  return opened;
}

/**
 * Checks that `node` exists and is of `kind` (when given).
 * @throws NotFoundError saying what is there instead
 */
function checkNodeKind(
  path: string,
  node: NodeMetadata | undefined,
  kind: "array" | "group" | undefined,
): asserts node is NodeMetadata {
  if (!node) {
    throw new NotFoundError(
      `/${path}`,
      kind ?? "array or group",
      "no Zarr metadata (zarr.json, .zarray or .zgroup) there",
    );
  }
  if (kind && node.kind !== kind) {
    throw new NotFoundError(
      `/${path}`,
      kind,
      `it is a ${node.kind}; open it with open${node.kind === "array" ? "Array" : "Group"}()`,
    );
  }
}

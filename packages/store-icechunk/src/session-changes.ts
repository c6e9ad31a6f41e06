import type { ChunkPayload } from "./format/manifest.js";

/** A node as a session writes it: its `zarr.json` and what the snapshot needs from it. */
export interface ChangedNode {
  /** Node id (base 32); the base snapshot's id when the node keeps its kind at its path. */
  id: string;
  /** `array` or `group`. */
  kind: "array" | "group";
  /** The node's `zarr.json`, as written. */
  zarrJson: Uint8Array;
  /** For arrays, the shape. */
  shape: number[];
  /** For arrays, the chunk grid's chunk shape (the shard shape of sharded arrays). */
  chunkShape: number[];
}

/**
 * What a writable session changed, by path (`""` for the root, `a/b` otherwise): nodes written
 * or deleted (`null`), and per array its chunks written or deleted (`null`) by
 * `coords.join(",")`. Plain data, so it can be re-applied onto another base snapshot.
 */
export interface SessionChanges {
  /** Nodes written or deleted, by path. */
  nodes: Map<string, ChangedNode | null>;
  /** Per array path, chunks written or deleted, by `coords.join(",")`. */
  chunks: Map<string, Map<string, ChunkPayload | null>>;
}

/** A parsed node `zarr.json`: kind, shape and the regular chunk grid's chunk shape. */
export function nodeOfZarrJson(
  id: string,
  zarrJson: Uint8Array,
): (Omit<ChangedNode, "id"> & { id: string }) | undefined {
  let meta: {
    node_type?: unknown;
    shape?: unknown;
    chunk_grid?: { configuration?: { chunk_shape?: unknown } };
  };
  try {
    meta = JSON.parse(new TextDecoder().decode(zarrJson));
  } catch {
    return undefined;
  }
  if (meta?.node_type === "group")
    return { id, kind: "group", zarrJson, shape: [], chunkShape: [] };
  if (meta?.node_type !== "array" || !Array.isArray(meta.shape)) return undefined;
  const chunkShape = meta.chunk_grid?.configuration?.chunk_shape;
  return {
    id,
    kind: "array",
    zarrJson,
    shape: meta.shape.map(Number),
    chunkShape: Array.isArray(chunkShape) ? chunkShape.map(Number) : [],
  };
}

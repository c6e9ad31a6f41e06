import { IcechunkConflictError, IcechunkSessionError } from "./errors.js";
import type { ChunkPayload } from "./format/manifest.js";
import type { ChangedNode, SessionChanges } from "./session-changes.js";

/** A chunk reference as JSON: inline bytes in base 64, or where a chunk file holds it. */
export type ForkChunk =
  | {
      /** The chunk's bytes, base 64. */
      inline: string;
    }
  | {
      /** The chunk file's id (`chunks/<id>`). */
      chunkId: string;
      /** Where the chunk starts in the file. */
      offset: number;
      /** The chunk's length in bytes. */
      length: number;
    }
  | null;

/**
 * What a writable session hands to other processes so they write parts of its arrays: the
 * branch, the snapshot, and the session's node changes (arrays created but not committed).
 * Plain JSON.
 */
export interface ForkPiece {
  /** Marks the object. */
  type: "icechunk-fork";
  /** The branch the session commits to. */
  branch: string;
  /** The session's snapshot. */
  snapshotId: string;
  /** The session's nodes written (`zarr.json` as text) or deleted (`null`), by path. */
  nodes: Array<[string, { id: string; zarrJson: string } | null]>;
}

/** What a forked session wrote, to merge into the session it came from. Plain JSON. */
export interface ForkResult {
  /** Marks the object. */
  type: "icechunk-fork-result";
  /** The snapshot the fork wrote on. */
  snapshotId: string;
  /** Per array path, its chunks written (or deleted) by `coords.join(",")`. */
  chunks: Array<[string, Array<[string, ForkChunk]>]>;
}

/** The fork piece of a session's changes. */
export function forkPieceOf(
  branch: string,
  snapshotId: string,
  changes: SessionChanges,
): ForkPiece {
  const text = new TextDecoder();
  return {
    type: "icechunk-fork",
    branch,
    snapshotId,
    nodes: [...changes.nodes].map(([path, node]) => [
      path,
      node === null ? null : { id: node.id, zarrJson: text.decode(node.zarrJson) },
    ]),
  };
}

/** Checks a fork piece read from JSON. @throws IcechunkSessionError */
export function checkForkPiece(piece: ForkPiece): ForkPiece {
  if (
    piece?.type !== "icechunk-fork" ||
    typeof piece.branch !== "string" ||
    typeof piece.snapshotId !== "string" ||
    !Array.isArray(piece.nodes)
  )
    throw new IcechunkSessionError("Not an Icechunk fork piece (from WritableSession.fork())");
  return piece;
}

/** A fork's result from its session's chunk changes. */
export function forkResultOf(snapshotId: string, changes: SessionChanges): ForkResult {
  return {
    type: "icechunk-fork-result",
    snapshotId,
    chunks: [...changes.chunks].map(([path, chunks]) => [
      path,
      [...chunks].map(([index, payload]) => [index, forkChunkOf(payload)]),
    ]),
  };
}

function forkChunkOf(payload: ChunkPayload | null): ForkChunk {
  if (payload === null) return null;
  if (payload.kind === "inline") return { inline: toBase64(payload.bytes) };
  if (payload.kind === "native")
    return { chunkId: payload.chunkId, offset: payload.offset, length: payload.length };
  throw new IcechunkSessionError("A forked session cannot hand over virtual chunk references");
}

function payloadOf(chunk: ForkChunk): ChunkPayload | null {
  if (chunk === null) return null;
  if ("inline" in chunk) return { kind: "inline", bytes: fromBase64(chunk.inline) };
  return { kind: "native", chunkId: chunk.chunkId, offset: chunk.offset, length: chunk.length };
}

/**
 * Adds the chunks of fork results to a session's changes: every result must come from the
 * session's snapshot, and no two may write the same chunk.
 * @throws IcechunkConflictError listing the chunks written twice
 */
export function mergeForkResults(
  changes: SessionChanges,
  snapshotId: string,
  branch: string,
  results: ForkResult[],
  nodeOf: (path: string) => ChangedNode | null,
): void {
  const overlap: string[] = [];
  const incoming = new Map<string, Map<string, ChunkPayload | null>>();
  for (const result of results) {
    if (result?.type !== "icechunk-fork-result" || !Array.isArray(result.chunks))
      throw new IcechunkSessionError(
        "Not an Icechunk fork result (from a forked session's done())",
      );
    if (result.snapshotId !== snapshotId)
      throw new IcechunkConflictError(branch, snapshotId, result.snapshotId);
    for (const [path, chunks] of result.chunks) {
      if (nodeOf(path)?.kind !== "array")
        throw new IcechunkSessionError(
          `A fork result writes chunks of ${path}, which is not an array of the session`,
        );
      let target = incoming.get(path);
      if (target === undefined) {
        target = new Map(changes.chunks.get(path));
        incoming.set(path, target);
      }
      const before = changes.chunks.get(path);
      for (const [index, chunk] of chunks) {
        if (target.has(index) && !before?.has(index)) overlap.push(`/${path} chunk ${index}`);
        target.set(index, payloadOf(chunk));
      }
    }
  }
  if (overlap.length > 0)
    throw new IcechunkConflictError(branch, snapshotId, snapshotId, overlap.sort());
  for (const [path, chunks] of incoming) changes.chunks.set(path, chunks);
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

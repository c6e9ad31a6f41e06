import {
  type DirListing,
  type GetOptions,
  groupDirListing,
  type Listable,
  type Readable,
  resolveRange,
  StoreBase,
  validateKey,
  validatePrefix,
  type Writable,
} from "@z/store-core";
import { chunkKeyEncodingOf, formatChunkKey, parseChunkKey } from "./chunk-key.js";
import { IcechunkObjectMissingError, IcechunkSessionError } from "./errors.js";
import { randomId } from "./format/encode.js";
import type { ChunkPayload } from "./format/manifest.js";
import { encodeObjectId } from "./format/object-id.js";
import type { Snapshot } from "./format/snapshot.js";
import { type ChangedNode, nodeOfZarrJson, type SessionChanges } from "./session-changes.js";
import type { SnapshotStore } from "./snapshot-store.js";

/** Chunks this size or smaller go inline into the manifest, as the official writer's default. */
export const INLINE_THRESHOLD = 512;

/** What the store needs of its session. */
export interface SessionStoreHost {
  /** The session's changes, which the store records. */
  readonly changes: SessionChanges;
  /** The snapshot the session writes on. */
  readonly base: Snapshot;
  /** That snapshot as a store, for what the session did not change. */
  readonly baseStore: SnapshotStore;
  /** The repository's store, where chunk files go. */
  readonly repoStore: Readable & Writable;
  /** Throws when the session can no longer write (committed). */
  checkOpen(): void;
}

/**
 * The Zarr keys of a writable session: the base snapshot with the session's changes on top.
 * Writing `zarr.json` creates or replaces a node, writing a chunk key stores the chunk (inline
 * when small, else as a chunk file of the repository right away); nothing is visible to other
 * readers before the session commits.
 * @category Stores
 */
export class SessionStore extends StoreBase implements Readable, Writable, Listable {
  readonly #host: SessionStoreHost;

  /** @internal */
  constructor(host: SessionStoreHost) {
    super();
    this.#host = host;
  }

  /** The node at a path, after the session's changes; null when deleted or absent. */
  node(path: string): ChangedNode | null {
    const changed = this.#host.changes.nodes.get(path);
    if (changed !== undefined) return changed;
    const base = this.#host.base.nodes.find((n) => n.path === (path === "" ? "/" : `/${path}`));
    if (base === undefined) return null;
    return {
      id: base.id,
      kind: base.kind,
      zarrJson: base.zarrJson,
      shape: base.shape,
      chunkShape: [],
    };
  }

  #baseNodeId(path: string): string | undefined {
    return this.#host.base.nodes.find((n) => n.path === (path === "" ? "/" : `/${path}`))?.id;
  }

  /** The array and coordinates a chunk key names. */
  #chunkOf(key: string): { path: string; coords: number[]; node: ChangedNode } | undefined {
    const segments = key.split("/");
    for (let i = segments.length - 1; i >= 0; i--) {
      const path = segments.slice(0, i).join("/");
      const node = this.node(path);
      if (node?.kind !== "array") continue;
      const encoding = chunkKeyEncodingOf(JSON.parse(new TextDecoder().decode(node.zarrJson)));
      if (encoding === undefined) continue;
      const coords = parseChunkKey(segments.slice(i).join("/"), encoding, node.shape.length);
      if (coords !== undefined) return { path, coords, node };
    }
    return undefined;
  }

  /** A node's `zarr.json` or a chunk's bytes, as the session sees them; undefined when missing. */
  async get(key: string, options: GetOptions = {}): Promise<Uint8Array | undefined> {
    validateKey(key);
    const path = nodePathOf(key);
    if (path !== undefined) {
      const node = this.node(path);
      return node === null ? undefined : slice(node.zarrJson, options.range);
    }
    const chunk = this.#chunkOf(key);
    if (chunk === undefined) return undefined;
    const written = this.#host.changes.chunks.get(chunk.path)?.get(chunk.coords.join(","));
    if (written === null) return undefined;
    if (written !== undefined) return this.#readPayload(key, written, options);
    // A node replaced by a new one of the same path starts with no chunks.
    if (this.#baseNodeId(chunk.path) !== chunk.node.id) return undefined;
    return this.#host.baseStore.get(key, options);
  }

  async #readPayload(key: string, p: ChunkPayload, options: GetOptions) {
    if (p.kind === "inline") return slice(p.bytes, options.range);
    if (p.kind !== "native") return this.#host.baseStore.get(key, options);
    const file = `chunks/${p.chunkId}`;
    const [start, end] =
      options.range === undefined ? [0, p.length] : resolveRange(options.range, p.length);
    const bytes = await this.#host.repoStore.get(file, {
      range: { offset: p.offset + start, length: end - start },
      signal: options.signal,
    });
    if (bytes === undefined) throw new IcechunkObjectMissingError(file, `the session's ${key}`);
    return bytes;
  }

  /** Writes a node's `zarr.json` (creating or replacing the node) or a chunk of an array. */
  async set(key: string, value: Uint8Array): Promise<void> {
    validateKey(key);
    this.#host.checkOpen();
    const path = nodePathOf(key);
    if (path !== undefined) {
      const existing = this.node(path);
      const parsed = nodeOfZarrJson("", value.slice());
      if (parsed === undefined)
        throw new IcechunkSessionError(
          `${key} is not a Zarr v3 node (node_type "array" or "group" with a shape)`,
          { key },
        );
      // A node keeps its id while it keeps its kind, so its chunks stay with it.
      const id =
        existing !== null && existing.kind === parsed.kind
          ? existing.id
          : encodeObjectId(randomId(8));
      if (existing !== null && existing.id !== id) this.#host.changes.chunks.delete(path);
      this.#host.changes.nodes.set(path, { ...parsed, id });
      return;
    }
    const chunk = this.#chunkOf(key);
    if (chunk === undefined)
      throw new IcechunkSessionError(`${key} is neither a zarr.json nor a chunk key of an array`, {
        key,
      });
    let payload: ChunkPayload;
    if (value.length <= INLINE_THRESHOLD) payload = { kind: "inline", bytes: value.slice() };
    else {
      const chunkId = encodeObjectId(randomId(12));
      await this.#host.repoStore.set(`chunks/${chunkId}`, value);
      payload = { kind: "native", chunkId, offset: 0, length: value.length };
    }
    let chunks = this.#host.changes.chunks.get(chunk.path);
    if (chunks === undefined) {
      chunks = new Map();
      this.#host.changes.chunks.set(chunk.path, chunks);
    }
    chunks.set(chunk.coords.join(","), payload);
  }

  /** Deletes a node (its `zarr.json`) or a chunk; deleting a missing key is not an error. */
  async delete(key: string): Promise<void> {
    validateKey(key);
    this.#host.checkOpen();
    const path = nodePathOf(key);
    if (path !== undefined) {
      if (this.node(path) === null) return;
      this.#host.changes.nodes.set(path, null);
      this.#host.changes.chunks.delete(path);
      return;
    }
    const chunk = this.#chunkOf(key);
    if (chunk === undefined) return;
    let chunks = this.#host.changes.chunks.get(chunk.path);
    if (chunks === undefined) {
      chunks = new Map();
      this.#host.changes.chunks.set(chunk.path, chunks);
    }
    chunks.set(chunk.coords.join(","), null);
  }

  /** Deletes every key under a prefix (each node's `zarr.json` and chunk). */
  async deletePrefix(prefix: string): Promise<void> {
    validatePrefix(prefix);
    this.#host.checkOpen();
    // Chunks first: deleting a node's zarr.json first would hide the chunk keys it owns.
    const keys = (await this.#allKeys()).filter((k) => k.startsWith(prefix));
    for (const key of keys) if (!key.endsWith("zarr.json")) await this.delete(key);
    for (const key of keys) if (key.endsWith("zarr.json")) await this.delete(key);
  }

  async #allKeys(): Promise<string[]> {
    const keys = new Set<string>();
    for await (const key of this.#host.baseStore.list()) {
      const p = nodePathOf(key);
      if (p !== undefined) {
        if (this.node(p) !== null) keys.add(key);
        continue;
      }
      if ((await this.get(key)) !== undefined) keys.add(key);
    }
    for (const [path, node] of this.#host.changes.nodes)
      if (node !== null) keys.add(path === "" ? "zarr.json" : `${path}/zarr.json`);
    for (const [path, chunks] of this.#host.changes.chunks) {
      const node = this.node(path);
      if (node?.kind !== "array") continue;
      const encoding = chunkKeyEncodingOf(JSON.parse(new TextDecoder().decode(node.zarrJson)));
      if (encoding === undefined) continue;
      for (const [index, payload] of chunks) {
        const coords = index === "" ? [] : index.split(",").map(Number);
        const key = (path === "" ? "" : `${path}/`) + formatChunkKey(coords, encoding);
        if (payload === null) keys.delete(key);
        else keys.add(key);
      }
    }
    return [...keys].sort();
  }

  /** Every key, after the session's changes. */
  async *list(): AsyncIterable<string> {
    yield* await this.#allKeys();
  }

  /** The keys under a prefix, after the session's changes. */
  async *listPrefix(prefix: string): AsyncIterable<string> {
    validatePrefix(prefix);
    for (const key of await this.#allKeys()) if (key.startsWith(prefix)) yield key;
  }

  /** The keys and sub-prefixes directly under a prefix, after the session's changes. */
  async listDir(prefix: string): Promise<DirListing> {
    validatePrefix(prefix);
    return groupDirListing(await this.#allKeys(), prefix);
  }
}

/** The node path of a `zarr.json` key (`""` for the root), else undefined. */
function nodePathOf(key: string): string | undefined {
  return key === "zarr.json" ? "" : key.endsWith("/zarr.json") ? key.slice(0, -10) : undefined;
}

function slice(bytes: Uint8Array, range: GetOptions["range"]): Uint8Array {
  if (range === undefined) return bytes.slice();
  const [start, end] = resolveRange(range, bytes.length);
  return bytes.slice(start, end);
}

import {
  type ByteRange,
  type DirListing,
  type GetOptions,
  groupDirListing,
  type Listable,
  type Readable,
  resolveRange,
  StoreBase,
  validateKey,
  validatePrefix,
} from "@z/store-core";
import {
  type ChunkKeyEncoding,
  chunkKeyEncodingOf,
  formatChunkKey,
  parseChunkKey,
} from "./chunk-key.js";
import { IcechunkFormatError, IcechunkObjectMissingError, VirtualChunkError } from "./errors.js";
import { type ChunkPayload, decodeManifest, type Manifest } from "./format/manifest.js";
import type { Snapshot, SnapshotNode } from "./format/snapshot.js";
import type { Repository } from "./repository.js";

/** An array node with what reading its chunks needs. */
interface ArrayEntry {
  node: SnapshotNode;
  /** The array's key prefix (`""` for a root array, `a/b/` otherwise). */
  prefix: string;
  encoding: ChunkKeyEncoding | undefined;
}

/**
 * The Zarr keys of one snapshot, read-only: each node's `zarr.json`, and each chunk key of an
 * array (in its chunk key encoding) mapped to the chunk's bytes wherever the manifest puts them:
 * inline in the manifest, in a chunk file of the repository, or in a virtual target. Chunk
 * references a manifest lacks read as missing keys, as Zarr expects of unwritten chunks.
 * @category Stores
 */
export class SnapshotStore extends StoreBase implements Readable, Listable {
  readonly #repo: Repository;
  readonly #nodes = new Map<string, SnapshotNode>();
  readonly #arrays = new Map<string, ArrayEntry>();
  readonly #manifests = new Map<string, Promise<Manifest>>();
  /** Values of `zarr.json` and inline chunks are copies; other reads are fresh buffers anyway. */
  readonly freshReads = false;

  /** @internal */
  constructor(repo: Repository, snapshot: Snapshot) {
    super();
    this.#repo = repo;
    for (const node of snapshot.nodes) {
      const path = node.path === "/" ? "" : node.path.slice(1);
      this.#nodes.set(path, node);
      if (node.kind === "array") {
        let encoding: ChunkKeyEncoding | undefined;
        try {
          encoding = chunkKeyEncodingOf(JSON.parse(new TextDecoder().decode(node.zarrJson)));
        } catch {
          encoding = undefined;
        }
        this.#arrays.set(path, { node, prefix: path === "" ? "" : `${path}/`, encoding });
      }
    }
  }

  /** Always false: a snapshot is read-only. */
  override get supportsWrites(): boolean {
    return false;
  }

  /** A node's `zarr.json` or a chunk's bytes (or a range of them); undefined when missing. */
  async get(key: string, options: GetOptions = {}): Promise<Uint8Array | undefined> {
    validateKey(key);
    const { range, signal } = options;
    signal?.throwIfAborted();
    const nodePath =
      key === "zarr.json" ? "" : key.endsWith("/zarr.json") ? key.slice(0, -10) : undefined;
    if (nodePath !== undefined) {
      const node = this.#nodes.get(nodePath);
      if (node !== undefined) return slice(node.zarrJson, range);
    }
    const chunk = this.#chunkOf(key);
    if (chunk === undefined) return undefined;
    const payload = await this.#payload(chunk.array, chunk.coords, signal);
    if (payload === undefined) return undefined;
    return this.#read(key, payload, range, signal);
  }

  /**
   * Where a chunk key's bytes are (inline, a chunk file of the repository, a virtual target),
   * or undefined when the key is not a chunk the snapshot holds.
   */
  async chunkRef(
    key: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<ChunkPayload | undefined> {
    validateKey(key);
    const chunk = this.#chunkOf(key);
    return chunk && this.#payload(chunk.array, chunk.coords, options.signal);
  }

  /** The array and chunk coordinates a key names, if it is a chunk key. */
  #chunkOf(key: string): { array: ArrayEntry; coords: number[] } | undefined {
    const segments = key.split("/");
    for (let i = segments.length - 1; i >= 0; i--) {
      const array = this.#arrays.get(segments.slice(0, i).join("/"));
      if (array?.encoding === undefined) continue;
      const coords = parseChunkKey(
        segments.slice(i).join("/"),
        array.encoding,
        array.node.shape.length,
      );
      if (coords !== undefined) return { array, coords };
    }
    return undefined;
  }

  async #manifest(id: string, referrer: string): Promise<Manifest> {
    let pending = this.#manifests.get(id);
    if (pending === undefined) {
      const key = `manifests/${id}`;
      pending = this.#repo.store.get(key).then((bytes) => {
        if (bytes === undefined) throw new IcechunkObjectMissingError(key, referrer);
        return decodeManifest(key, bytes, this.#repo.limits);
      });
      // A failed read is not cached, so a later read can succeed once storage recovers.
      pending.catch(() => this.#manifests.delete(id));
      this.#manifests.set(id, pending);
    }
    return pending;
  }

  async #payload(
    array: ArrayEntry,
    coords: number[],
    signal?: AbortSignal,
  ): Promise<ChunkPayload | undefined> {
    const ref = array.node.manifests.find(
      (m) =>
        m.extents.length === coords.length &&
        m.extents.every(([from, to], d) => coords[d] >= from && coords[d] < to),
    );
    if (ref === undefined) return undefined;
    const manifest = await this.#manifest(
      ref.manifestId,
      `the snapshot's array ${array.node.path}`,
    );
    signal?.throwIfAborted();
    return manifest.arrays.get(array.node.id)?.get(coords.join(","));
  }

  async #read(
    key: string,
    payload: ChunkPayload,
    range: ByteRange | undefined,
    signal?: AbortSignal,
  ) {
    if (payload.kind === "inline") return slice(payload.bytes, range);
    const [start, end] =
      range === undefined ? [0, payload.length] : resolveRange(range, payload.length);
    const part = { offset: payload.offset + start, length: end - start };
    if (payload.kind === "native") {
      const file = `chunks/${payload.chunkId}`;
      const bytes = await this.#repo.store.get(file, { range: part, signal });
      if (bytes === undefined)
        throw new IcechunkObjectMissingError(file, `the chunk reference of ${key}`);
      if (bytes.length !== part.length)
        throw new IcechunkFormatError(
          file,
          `it ends before the ${payload.length}-byte chunk at offset ${payload.offset} that ${key} refers to`,
        );
      return bytes;
    }
    const source = this.#sourceOf(payload.location);
    if (source === undefined)
      throw new VirtualChunkError(
        payload.location,
        'no virtual chunk source is given for this URL: pass virtualChunks: {"<url prefix>": source} to openRepository',
        { key },
      );
    const bytes = await source.read(payload.location, part, { checksum: payload.checksum, signal });
    if (bytes === undefined)
      throw new VirtualChunkError(payload.location, "the target does not exist", { key });
    return bytes;
  }

  #sourceOf(url: string) {
    let best: string | undefined;
    for (const prefix of Object.keys(this.#repo.virtualChunks))
      if (url.startsWith(prefix) && (best === undefined || prefix.length > best.length))
        best = prefix;
    return best === undefined ? undefined : this.#repo.virtualChunks[best];
  }

  /** Every chunk key of an array, from its manifests. */
  async #chunkKeys(array: ArrayEntry): Promise<string[]> {
    if (array.encoding === undefined) return [];
    const out: string[] = [];
    for (const ref of array.node.manifests) {
      const manifest = await this.#manifest(
        ref.manifestId,
        `the snapshot's array ${array.node.path}`,
      );
      for (const index of manifest.arrays.get(array.node.id)?.keys() ?? []) {
        const coords = index === "" ? [] : index.split(",").map(Number);
        out.push(array.prefix + formatChunkKey(coords, array.encoding));
      }
    }
    return out;
  }

  /** Every key: each node's `zarr.json` and each chunk key (reads the manifests). */
  async *list(): AsyncIterable<string> {
    yield* await this.#keysUnder("");
  }

  /** The keys under a prefix (reads the manifests of the arrays below it). */
  async *listPrefix(prefix: string): AsyncIterable<string> {
    validatePrefix(prefix);
    yield* await this.#keysUnder(prefix);
  }

  async #keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    for (const path of this.#nodes.keys()) {
      const key = path === "" ? "zarr.json" : `${path}/zarr.json`;
      if (key.startsWith(prefix)) keys.push(key);
    }
    for (const array of this.#arrays.values()) {
      // Only arrays whose chunk keys can fall under the prefix need their manifests read.
      if (array.prefix.startsWith(prefix) || prefix.startsWith(array.prefix))
        for (const key of await this.#chunkKeys(array)) if (key.startsWith(prefix)) keys.push(key);
    }
    return keys.sort();
  }

  /** The keys and sub-prefixes directly under a prefix. */
  async listDir(prefix: string): Promise<DirListing> {
    validatePrefix(prefix);
    const keys: string[] = [];
    for (const path of this.#nodes.keys())
      keys.push(path === "" ? "zarr.json" : `${path}/zarr.json`);
    // Chunk keys add directories only inside their own array, where the node keys do not reach.
    for (const array of this.#arrays.values())
      if (prefix.startsWith(array.prefix)) keys.push(...(await this.#chunkKeys(array)));
    return groupDirListing(keys, prefix);
  }
}

function slice(bytes: Uint8Array, range: ByteRange | undefined): Uint8Array {
  if (range === undefined) return bytes.slice();
  const [start, end] = resolveRange(range, bytes.length);
  return bytes.slice(start, end);
}

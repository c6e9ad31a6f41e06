import { type ArrayMetadata, V2ChunkKeyEncoding } from "@z/metadata";
import { joinKey, type Readable, type Writable } from "@z/store-core";
import { loadWritePath } from "../lazy-features.js";
import type { KeyUpdate, UpdateKeyOptions } from "../write/read-modify-write.js";

/**
 * Where an array's stored chunks are and how they change: the key of each chunk (the v2
 * separator included), reads of its bytes, and writes that replace, update (read-modify-write,
 * in turn with other writers of the key, see `updateKey`) or delete it. Knows nothing of codecs.
 */
export class ChunkStore {
  /** v2 metadata without `dimension_separator` may still have `/` keys (older writers). */
  private legacySeparator: "." | "/" | undefined;

  constructor(
    readonly store: Readable,
    readonly path: string,
    private readonly metadata: ArrayMetadata,
  ) {
    const v2 = metadata.v2;
    if (v2 && v2.dimensionSeparator === undefined && metadata.shape.length > 1)
      this.legacySeparator = ".";
  }

  /** The store key of the chunk at grid coordinates `coords`. */
  key(coords: readonly number[]): string {
    if (this.legacySeparator === "/")
      return joinKey(this.path, new V2ChunkKeyEncoding("/").encode(coords));
    return joinKey(this.path, this.metadata.chunkKeyEncoding.encode(coords));
  }

  /** Whether the store's reads return memory nothing else holds (see `Readable.freshReads`). */
  get freshReads(): boolean {
    return this.store.freshReads === true;
  }

  /** Whether the store reads into a caller's buffer (`getInto`). */
  get readsInto(): boolean {
    return this.store.getInto !== undefined;
  }

  /** The stored bytes of a chunk, or undefined when it is missing. */
  async get(
    coords: readonly number[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Uint8Array | undefined> {
    const bytes = await this.store.get(this.key(coords), { signal: options.signal });
    if (bytes !== undefined || this.legacySeparator !== ".") return bytes;
    // A v2 array written before dimension_separator existed may use nested keys; once one is
    // found, the array is known to use them.
    const nested = joinKey(this.path, new V2ChunkKeyEncoding("/").encode(coords));
    const found = await this.store.get(nested, { signal: options.signal });
    if (found !== undefined) this.legacySeparator = "/";
    return found;
  }

  /**
   * The stored bytes of a chunk read into `buffer` (a view of it) when they fit; their size when
   * they do not (the buffer then holds nothing useful); undefined when the chunk is missing.
   * Without `getInto` on the store, or under a nested v2 key, the bytes come in memory of their
   * own.
   */
  async getInto(
    coords: readonly number[],
    buffer: Uint8Array,
    options: { signal?: AbortSignal } = {},
  ): Promise<Uint8Array | number | undefined> {
    const { getInto } = this.store;
    if (getInto === undefined) return this.get(coords, options);
    const size = await getInto.call(this.store, this.key(coords), buffer, options);
    if (size !== undefined) return size <= buffer.length ? buffer.subarray(0, size) : size;
    return this.legacySeparator === "." ? this.get(coords, options) : undefined;
  }

  /**
   * Stores a chunk's bytes, or deletes it for `undefined` (a chunk all fill value), without
   * reading it; in turn with the other writes of the same chunk in this process.
   */
  async replace(
    coords: readonly number[],
    bytes: Uint8Array | undefined,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    const { replaceKey } = await loadWritePath();
    await replaceKey(this.writable(), this.key(coords), bytes, { signal: options.signal });
  }

  /** Deletes a chunk, in turn with the other writes of it in this process. */
  delete(coords: readonly number[], options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.replace(coords, undefined, options);
  }

  /**
   * Reads a chunk's bytes, lets `update` make its new bytes (undefined: delete it) and stores
   * them without losing concurrent writes of the chunk (see `updateKey`): `update` may run again
   * on newer stored bytes.
   */
  async update(
    coords: readonly number[],
    update: KeyUpdate,
    options: Pick<UpdateKeyOptions, "signal" | "conditional"> = {},
  ): Promise<void> {
    // A v2 array from before dimension_separator may keep its chunks under nested keys;
    // reading one chunk finds out which, before the key to update is chosen.
    if (this.legacySeparator === ".") await this.get(coords, options);
    const { updateKey } = await loadWritePath();
    await updateKey(this.writable(), this.key(coords), update, options);
  }

  private writable(): Readable & Writable {
    return this.store as Readable & Writable;
  }
}

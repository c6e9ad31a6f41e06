import { type BasicSelection, BasicIndexer, type Indexer } from "@z/indexing";
import {
  type ArrayMetadata,
  type Chunk,
  type Container,
  type DataType,
  type JsonObject,
  product,
} from "@z/metadata";
import { isWritable, joinKey, type Readable, ReadOnlyError, type Writable } from "@z/store-core";
import type { ChunkAccess } from "./chunk-access.js";
import { ChunkIo } from "./chunk-io.js";
import { arrayMetadataDocuments, writeDocuments } from "./metadata-io.js";
import { readSelection, type SelectionOptions, writeSelection } from "./selection-io.js";
import type { SetValue } from "./values.js";

/**
 * A Zarr array (v2 or v3) in a store. Reads and writes go chunk by chunk through the codec
 * pipeline; the array object itself holds only metadata, so it is cheap to create.
 *
 * ```ts
 * const arr = await createArray(store, { shape: [100, 100], chunks: [10, 10], dtype: "float32" });
 * await arr.set([slice(0, 10), null], 1.5);
 * const { data, shape } = await arr.get([slice(0, 2), slice(null, null, -1)]);
 * ```
 *
 * @typeParam C - the element container of the data type (Float32Array for float32, ...)
 */
export class ZarrArray<C extends Container = Container> {
  /** Chunk reading and writing for this array. */
  readonly io: ChunkIo;
  /** How selections reach chunks (the chunk I/O itself for unsharded arrays). */
  readonly access: ChunkAccess;

  constructor(
    /** The store the array lives in. */
    readonly store: Readable,
    /** The array's path in the store (`""` for the root). */
    readonly path: string,
    /** The array's metadata. */
    readonly metadata: ArrayMetadata,
  ) {
    this.io = new ChunkIo(store, path, metadata);
    this.access = this.io;
  }

  /** The array's name: the last segment of its path (`""` for the root). */
  get name(): string {
    return this.path.split("/").pop() ?? "";
  }
  /** 2 or 3. */
  get zarrFormat(): 2 | 3 {
    return this.metadata.zarrFormat;
  }
  /** The shape. */
  get shape(): number[] {
    return [...this.metadata.shape];
  }
  /** The number of dimensions. */
  get ndim(): number {
    return this.metadata.shape.length;
  }
  /** The number of elements. */
  get size(): number {
    return product(this.metadata.shape);
  }
  /** The element type. */
  get dataType(): DataType {
    return this.metadata.dataType;
  }
  /** The element type's name (v3 name, e.g. `"float32"`). */
  get dtype(): string {
    return this.metadata.dataType.name;
  }
  /** The chunk shape. */
  get chunks(): number[] {
    return [...this.metadata.chunkGrid.chunkShape];
  }
  /** The fill value: what never-written elements read as. */
  get fillValue(): unknown {
    return this.metadata.fillValue;
  }
  /** The user attributes (a snapshot; change them with {@link ZarrArray.updateAttributes}). */
  get attrs(): JsonObject {
    return structuredClone(this.metadata.attributes);
  }
  /** The dimension names (v3), or undefined. */
  get dimensionNames(): (string | null)[] | undefined {
    return this.metadata.dimensionNames ? [...this.metadata.dimensionNames] : undefined;
  }

  /**
   * Reads a selection: integers (negative count from the end), `slice(start, stop, step)`
   * with any non-zero step, `null` or `"..."` for whole axes. Returns the elements in C order
   * with the selection's shape (integer-selected axes dropped).
   * @throws BoundsError, SelectionError, DecodeError, ChecksumError
   */
  async get(selection?: BasicSelection, options?: SelectionOptions): Promise<Chunk<C>> {
    return this.read(new BasicIndexer(selection, this.metadata.shape, this.access.chunkShape), options);
  }

  /** Reads what an indexer selects (every selection mode goes through here). */
  async read(indexer: Indexer, options?: SelectionOptions): Promise<Chunk<C>> {
    return readSelection(this.access, this.metadata, indexer, options) as Promise<Chunk<C>>;
  }

  /**
   * Writes a selection: a scalar goes to every selected element; an n-d value must have the
   * selection's shape. Partially covered chunks are read, modified and written back; chunks
   * left equal to the fill value are deleted.
   * @throws ReadOnlyError, BoundsError, SelectionError, ValueShapeError
   */
  async set(selection: BasicSelection, value: SetValue, options?: SelectionOptions): Promise<void> {
    await this.write(new BasicIndexer(selection, this.metadata.shape, this.access.chunkShape), value, options);
  }

  /** Writes `value` into what an indexer selects (every selection mode goes through here). */
  async write(indexer: Indexer, value: SetValue, options?: SelectionOptions): Promise<void> {
    this.writableStore();
    await writeSelection(this.access, this.metadata, indexer, value, options);
  }

  /** The decoded chunk at grid coordinates `coords`, or undefined when it has never been written. */
  async getChunk(coords: readonly number[], options?: { signal?: AbortSignal }): Promise<Chunk<C> | undefined> {
    return this.io.read(coords, options) as Promise<Chunk<C> | undefined>;
  }

  /** The store key of the chunk at grid coordinates `coords`. */
  chunkKey(coords: readonly number[]): string {
    return this.io.chunkKey(coords);
  }

  /**
   * Replaces the user attributes with `attributes` merged into the current ones (pass
   * `{replace: true}` to drop the others) and writes the metadata.
   */
  async updateAttributes(attributes: JsonObject, options: { replace?: boolean } = {}): Promise<ZarrArray<C>> {
    const store = this.writableStore();
    const merged = options.replace ? attributes : { ...this.metadata.attributes, ...attributes };
    const metadata: ArrayMetadata = { ...this.metadata, attributes: merged };
    const docs = arrayMetadataDocuments(metadata);
    if (metadata.zarrFormat === 2 && !docs.some(([key]) => key === ".zattrs")) {
      docs.push([".zattrs", new TextEncoder().encode("{}")]);
    }
    await writeDocuments(store, this.path, docs);
    return new ZarrArray<C>(this.store, this.path, metadata);
  }

  /** A short human-readable description. */
  toString(): string {
    return `<ZarrArray v${this.zarrFormat} /${this.path} shape=[${this.shape}] dtype=${this.dtype} chunks=[${this.chunks}]>`;
  }

  private writableStore(): Readable & Writable {
    if (!isWritable(this.store)) throw new ReadOnlyError(joinKey(this.path, "") || "/", "write to");
    return this.store;
  }
}

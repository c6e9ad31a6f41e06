import {
  type BasicSelection,
  BasicIndexer,
  type BlockItem,
  blockIndexer,
  CoordinateIndexer,
  type CoordinateSelection,
  type Indexer,
  type Mask,
  OrthogonalIndexer,
  type OrthogonalItem,
} from "@z/indexing";
import { type AnySelection, indexerFor } from "./any-selection.js";
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

  /**
   * Reads an orthogonal selection: each axis by an integer, a slice, an index array (negative,
   * repeated, unsorted indices allowed) or a boolean mask, independently (NumPy's `np.ix_`).
   * @throws BoundsError, SelectionError
   */
  async getOrthogonal(selection: readonly OrthogonalItem[] | OrthogonalItem, options?: SelectionOptions): Promise<Chunk<C>> {
    return this.read(new OrthogonalIndexer(selection, this.metadata.shape, this.access.chunkShape), options);
  }

  /** Writes an orthogonal selection (see {@link ZarrArray.getOrthogonal}); a repeated index takes the last value. */
  async setOrthogonal(selection: readonly OrthogonalItem[] | OrthogonalItem, value: SetValue, options?: SelectionOptions): Promise<void> {
    await this.write(new OrthogonalIndexer(selection, this.metadata.shape, this.access.chunkShape), value, options);
  }

  /**
   * Reads points: `selection[axis][k]` is point k's index along each axis (all lists the same
   * length; a single integer repeats). The result is 1-d, one element per point, in order.
   * @throws BoundsError, SelectionError
   */
  async getCoordinates(selection: CoordinateSelection, options?: SelectionOptions): Promise<Chunk<C>> {
    return this.read(new CoordinateIndexer(selection, this.metadata.shape, this.access.chunkShape), options);
  }

  /** Writes points (see {@link ZarrArray.getCoordinates}): a scalar, or one value per point. */
  async setCoordinates(selection: CoordinateSelection, value: SetValue, options?: SelectionOptions): Promise<void> {
    await this.write(new CoordinateIndexer(selection, this.metadata.shape, this.access.chunkShape), value, options);
  }

  /**
   * Reads the elements where a boolean mask of the array's shape is true, in C order (1-d).
   * @throws SelectionError when the mask's shape is not the array's
   */
  async getMask(mask: Mask, options?: SelectionOptions): Promise<Chunk<C>> {
    return this.read(CoordinateIndexer.fromMask(mask, this.metadata.shape, this.access.chunkShape), options);
  }

  /** Writes the elements where a mask is true: a scalar, or one value per true element. */
  async setMask(mask: Mask, value: SetValue, options?: SelectionOptions): Promise<void> {
    await this.write(CoordinateIndexer.fromMask(mask, this.metadata.shape, this.access.chunkShape), value, options);
  }

  /**
   * Reads whole chunks by their grid index (`arr.blocks[...]` in zarr-python): an integer
   * keeps its axis; slices of chunk indices take step 1.
   * @throws BoundsError, SelectionError
   */
  async getBlocks(selection: readonly BlockItem[] | BlockItem, options?: SelectionOptions): Promise<Chunk<C>> {
    return this.read(this.blockIndexer(selection), options);
  }

  /** Writes whole chunks by their grid index (see {@link ZarrArray.getBlocks}). */
  async setBlocks(selection: readonly BlockItem[] | BlockItem, value: SetValue, options?: SelectionOptions): Promise<void> {
    await this.write(this.blockIndexer(selection), value, options);
  }

  private blockIndexer(selection: readonly BlockItem[] | BlockItem): Indexer {
    return blockIndexer(selection, this.metadata.shape, this.metadata.chunkGrid.chunkShape, this.access.chunkShape);
  }

  /**
   * Reads any kind of selection: `{orthogonal}`, `{coordinates}`, `{mask}` or `{blocks}`
   * explicitly, or plain items, read as zarr-python's `arr[...]` does: a boolean array of the
   * array's shape is a mask, index arrays for every axis are coordinates, any other index array
   * or axis mask makes it orthogonal, and the rest is a basic selection.
   */
  async getSelection(selection: AnySelection, options?: SelectionOptions): Promise<Chunk<C>> {
    return this.read(indexerFor(selection, this.metadata, this.access.chunkShape), options);
  }

  /** Writes any kind of selection (see {@link ZarrArray.getSelection}). */
  async setSelection(selection: AnySelection, value: SetValue, options?: SelectionOptions): Promise<void> {
    await this.write(indexerFor(selection, this.metadata, this.access.chunkShape), value, options);
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

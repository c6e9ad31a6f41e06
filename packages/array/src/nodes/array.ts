import { formatValue } from "@z/errors";
import {
  BasicIndexer,
  type BasicSelection,
  type BlockItem,
  type CoordinateSelection,
  type Indexer,
  type Mask,
  type OrthogonalItem,
  slice,
} from "@z/indexing";
import type { ArrayMetadata, DataType, JsonObject, NamedConfig } from "@z/metadata";
import { checkAttributes } from "@z/metadata";
import type { Chunk, Container } from "@z/ndarray";
import { product } from "@z/ndarray";
import { isWritable, joinKey, type Readable, type Writable } from "@z/store-core";
import { notWritableError } from "@z/store-core/internal";
import type { ChunkCache } from "../cache/chunk-cache.js";
import type { ContainerOf } from "../create/container-types.js";
import { isDataTypeNamed } from "../create/data-type-named.js";
import { shardingOf } from "../create/sharding-config.js";
import { ValueShapeError } from "../errors.js";
import type { AnySelection } from "../io/any-selection.js";
import { ArrayChunks } from "../io/array-chunks.js";
import { type ReadOptions, readSelection, type SelectionOptions } from "../io/selection-io.js";
import { loadSelectionIndexers, loadStoredChunks, loadWritePath } from "../lazy-features.js";
import { loggedAccess } from "../logging/node-logging.js";
import type { MetadataChange } from "../write/metadata-update.js";
import type { NdValue, SetValue } from "../write/values.js";
import { codecRoles, type NumcodecsConfig } from "./codec-roles.js";
import { type ArrayInfo, arrayInfo } from "./info.js";
import type { NodeMetadata } from "./node-documents.js";
import { nodeReadOnlyError, storeIsReadOnly } from "./open-mode.js";

/** How an array object was opened. */
export interface ArrayState {
  /**
   * The store paths of the groups whose consolidated metadata lists this array: `resize` and
   * `updateAttributes` update the array's entry there too. Set by the group or the creation
   * that opened the array through that metadata.
   */
  consolidatedHolders?: readonly string[];
  /** The decoded-chunk cache the array's reads go through (see `ChunkCache`). */
  cache?: ChunkCache;
}

/**
 * A Zarr array (v2 or v3) in a store. Reads and writes go chunk by chunk through the codec
 * pipeline; the array object itself holds only metadata, so it is cheap to create.
 *
 * @example
 * ```ts
 * const arr = await createArray(store, { shape: [100, 100], chunks: [10, 10], dtype: "float32" });
 * await arr.set([slice(0, 10), null], 1.5);
 * const { data, shape } = await arr.get([slice(0, 2), slice(null, null, -1)]);
 * ```
 *
 * @typeParam C - the element container of the data type (Float32Array for float32, ...)
 * @category Arrays and groups
 */
export class ZarrArray<C extends Container = Container> {
  private state: { metadata: ArrayMetadata; access: ArrayChunks };
  private readonly consolidatedHolders: readonly string[];

  constructor(
    /** The store the array lives in. */
    readonly store: Readable,
    /** The array's path in the store (`""` for the root). */
    readonly path: string,
    metadata: ArrayMetadata,
    options: ArrayState = {},
  ) {
    this.state = ZarrArray.stateFor(store, path, metadata, options.cache);
    this.consolidatedHolders = options.consolidatedHolders ?? [];
  }

  private static stateFor(
    store: Readable,
    path: string,
    metadata: ArrayMetadata,
    cache: ChunkCache | undefined,
  ) {
    return { metadata, access: new ArrayChunks(store, path, metadata, cache) };
  }

  /**
   * The array's metadata (replaced, not mutated, by resize and attribute updates, with the
   * metadata as stored after them).
   */
  get metadata(): ArrayMetadata {
    return this.state.metadata;
  }
  /**
   * How selections reach chunks: the chunk store (keys, writes) and the pipeline runner (codec
   * pipelines, worker pools), for the other `@z` packages.
   * @internal
   */
  get access(): ArrayChunks {
    return this.state.access;
  }

  /**
   * Applies this array's own change to its stored metadata (read fresh, so concurrent updates
   * of other attributes or of the shape survive), makes this object use the metadata as stored,
   * and updates the array's entry in the consolidated metadata that lists it.
   */
  private async updateMetadata(
    change: MetadataChange,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    const store = this.writableStore("update the metadata of");
    const { updateHolderEntry, updateNodeMetadata } = await loadWritePath();
    const current: NodeMetadata = { kind: "array", metadata: this.metadata };
    const stored = await updateNodeMetadata(store, this.path, current, change, options);
    const { cache } = this.access;
    this.state = ZarrArray.stateFor(this.store, this.path, stored.metadata as ArrayMetadata, cache);
    // After the array's own documents, as group edits and node creation do; only arrays opened
    // through consolidated metadata are listed there.
    for (const holder of this.consolidatedHolders)
      await updateHolderEntry(store, holder, this.path, stored, options);
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
  /**
   * The element type; its `create(n)` makes a container of the class reads return (what the
   * `out` option of a read takes).
   */
  get dataType(): DataType<unknown, C> {
    return this.metadata.dataType as DataType<unknown, C>;
  }
  /** The element type's name (v3 name, e.g. `"float32"`). */
  get dtype(): string {
    return this.metadata.dataType.name;
  }
  /**
   * The chunk shape: the inner chunk shape of a sharded array, as in zarr-python. For a grid
   * whose chunks differ in shape (`rectilinear`), the largest edge length along each axis; the
   * boundaries themselves are `metadata.chunkGrid.axes`.
   */
  get chunks(): number[] {
    const sharding = shardingOf(this.metadata);
    const grid = this.metadata.chunkGrid;
    return sharding ? [...sharding.chunkShape] : [...(grid.chunkShape ?? grid.maxChunkShape)];
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
   * @example
   * ```ts
   * const { data, shape, stride } = await arr.get([0, slice(10, 20), slice(null, null, -1)]);
   * const all = await arr.get(); // the whole array
   * // Many reads of one shape into one container (see ReadOptions.out):
   * const out = new Float32Array(100);
   * for (const row of [0, 1, 2]) await arr.get([row, slice(0, 100)], { out }); // data === out
   * ```
   * @throws BoundsError, SelectionError, DecodeError, ChecksumError; ValueTypeError,
   *   ValueShapeError for an `out` of another class or length than the result's
   */
  async get(selection?: BasicSelection, options?: ReadOptions<C>): Promise<Chunk<C>> {
    return this.read(
      new BasicIndexer(selection, this.metadata.shape, this.access.chunkShape),
      options,
    );
  }

  /**
   * Reads what an indexer selects (every selection mode goes through here); into
   * `options.out` when given.
   */
  async read(indexer: Indexer, options?: ReadOptions<C>): Promise<Chunk<C>> {
    return loggedAccess("read", this.path, indexer, () =>
      readSelection(this.access, this.metadata, indexer, options),
    ) as Promise<Chunk<C>>;
  }

  /**
   * Writes a selection: a scalar goes to every selected element; an n-d value must have the
   * selection's shape. Partially covered chunks are read, modified and written back; chunks
   * left equal to the fill value are deleted.
   * @example
   * ```ts
   * await arr.set([0, null], 1.5); // a scalar everywhere in row 0
   * await arr.set([slice(0, 2), slice(0, 3)], { data: new Float32Array(6), shape: [2, 3] });
   * await arr.set([0, slice(0, 3)], [1, 2, 3]); // nested arrays
   * ```
   * @throws ReadOnlyError, BoundsError, SelectionError, ValueShapeError
   */
  async set(selection: BasicSelection, value: SetValue, options?: SelectionOptions): Promise<void> {
    await this.write(
      new BasicIndexer(selection, this.metadata.shape, this.access.chunkShape),
      value,
      options,
    );
  }

  /** Writes `value` into what an indexer selects (every selection mode goes through here). */
  async write(indexer: Indexer, value: SetValue, options?: SelectionOptions): Promise<void> {
    this.writableStore();
    const { writeSelection } = await loadWritePath();
    await loggedAccess("write", this.path, indexer, () =>
      writeSelection(this.access, this.metadata, indexer, value, options),
    );
  }

  /**
   * Reads an orthogonal selection: each axis by an integer, a slice, an index array (negative,
   * repeated, unsorted indices allowed) or a boolean mask, independently (NumPy's `np.ix_`).
   * @throws BoundsError, SelectionError
   */
  async getOrthogonal(
    selection: readonly OrthogonalItem[] | OrthogonalItem,
    options?: ReadOptions<C>,
  ): Promise<Chunk<C>> {
    const { OrthogonalIndexer } = await loadSelectionIndexers();
    return this.read(
      new OrthogonalIndexer(selection, this.metadata.shape, this.access.chunkShape),
      options,
    );
  }

  /** Writes an orthogonal selection (see {@link ZarrArray.getOrthogonal}); a repeated index takes the last value. */
  async setOrthogonal(
    selection: readonly OrthogonalItem[] | OrthogonalItem,
    value: SetValue,
    options?: SelectionOptions,
  ): Promise<void> {
    const { OrthogonalIndexer } = await loadSelectionIndexers();
    await this.write(
      new OrthogonalIndexer(selection, this.metadata.shape, this.access.chunkShape),
      value,
      options,
    );
  }

  /**
   * Reads points: `selection[axis][k]` is point k's index along each axis (all lists the same
   * length; a single integer repeats). The result is 1-d, one element per point, in order.
   * @throws BoundsError, SelectionError
   */
  async getCoordinates(
    selection: CoordinateSelection,
    options?: ReadOptions<C>,
  ): Promise<Chunk<C>> {
    const { CoordinateIndexer } = await loadSelectionIndexers();
    return this.read(
      new CoordinateIndexer(selection, this.metadata.shape, this.access.chunkShape),
      options,
    );
  }

  /** Writes points (see {@link ZarrArray.getCoordinates}): a scalar, or one value per point. */
  async setCoordinates(
    selection: CoordinateSelection,
    value: SetValue,
    options?: SelectionOptions,
  ): Promise<void> {
    const { CoordinateIndexer } = await loadSelectionIndexers();
    await this.write(
      new CoordinateIndexer(selection, this.metadata.shape, this.access.chunkShape),
      value,
      options,
    );
  }

  /**
   * Reads the elements where a boolean mask of the array's shape is true, in C order (1-d).
   * @throws SelectionError when the mask's shape is not the array's
   */
  async getMask(mask: Mask, options?: ReadOptions<C>): Promise<Chunk<C>> {
    const { CoordinateIndexer } = await loadSelectionIndexers();
    return this.read(
      CoordinateIndexer.fromMask(mask, this.metadata.shape, this.access.chunkShape),
      options,
    );
  }

  /** Writes the elements where a mask is true: a scalar, or one value per true element. */
  async setMask(mask: Mask, value: SetValue, options?: SelectionOptions): Promise<void> {
    const { CoordinateIndexer } = await loadSelectionIndexers();
    await this.write(
      CoordinateIndexer.fromMask(mask, this.metadata.shape, this.access.chunkShape),
      value,
      options,
    );
  }

  /**
   * Reads whole chunks by their grid index (`arr.blocks[...]` in zarr-python): an integer
   * keeps its axis; slices of chunk indices take step 1.
   * @throws BoundsError, SelectionError
   */
  async getBlocks(
    selection: readonly BlockItem[] | BlockItem,
    options?: ReadOptions<C>,
  ): Promise<Chunk<C>> {
    return this.read(await this.blockIndexer(selection), options);
  }

  /** Writes whole chunks by their grid index (see {@link ZarrArray.getBlocks}). */
  async setBlocks(
    selection: readonly BlockItem[] | BlockItem,
    value: SetValue,
    options?: SelectionOptions,
  ): Promise<void> {
    await this.write(await this.blockIndexer(selection), value, options);
  }

  private async blockIndexer(selection: readonly BlockItem[] | BlockItem): Promise<Indexer> {
    const { blockIndexer } = await loadSelectionIndexers();
    return blockIndexer(
      selection,
      this.metadata.shape,
      this.metadata.chunkGrid.axes,
      this.access.chunkShape,
    );
  }

  /**
   * Reads any kind of selection: `{orthogonal}`, `{coordinates}`, `{mask}` or `{blocks}`
   * explicitly, or plain items, read as zarr-python's `arr[...]` does: a boolean array of the
   * array's shape is a mask, index arrays for every axis are coordinates, any other index array
   * or axis mask makes it orthogonal, and the rest is a basic selection.
   */
  async getSelection(selection: AnySelection, options?: ReadOptions<C>): Promise<Chunk<C>> {
    const { indexerFor } = await loadSelectionIndexers();
    return this.read(indexerFor(selection, this.metadata, this.access.chunkShape), options);
  }

  /** Writes any kind of selection (see {@link ZarrArray.getSelection}). */
  async setSelection(
    selection: AnySelection,
    value: SetValue,
    options?: SelectionOptions,
  ): Promise<void> {
    const { indexerFor } = await loadSelectionIndexers();
    await this.write(indexerFor(selection, this.metadata, this.access.chunkShape), value, options);
  }

  /** The decoded chunk at grid coordinates `coords`, or undefined when it has never been written. */
  async getChunk(
    coords: readonly number[],
    options?: { signal?: AbortSignal },
  ): Promise<Chunk<C> | undefined> {
    const found = await this.access.readChunk(coords, options);
    return found?.chunk as Chunk<C> | undefined;
  }

  /** The store key of the chunk at grid coordinates `coords`. */
  chunkKey(coords: readonly number[]): string {
    return this.access.stored.key(coords);
  }

  /**
   * Merges `attributes` into the stored ones (or replaces them with `{replace: true}`) and
   * writes the metadata. The stored metadata is read again first, so attributes other writers
   * set meanwhile (other objects, other processes) are kept; this object then holds the
   * metadata as stored.
   */
  async updateAttributes(
    attributes: JsonObject,
    options: { replace?: boolean; signal?: AbortSignal } = {},
  ): Promise<this> {
    // Checked before the merge, so a bad value is named where the caller put it.
    checkAttributes(attributes, `/${this.path} attributes`);
    await this.updateMetadata(
      { attributes, replaceAttributes: options.replace === true },
      { signal: options.signal },
    );
    return this;
  }

  /**
   * Changes the shape. Growing only rewrites the metadata; shrinking also deletes the chunks
   * that end up wholly outside and resets, to the fill value, the parts of edge chunks that
   * fall outside, so growing again later reads the fill value there, never stale data.
   * @example
   * ```ts
   * await arr.resize([200, 100]); // new rows read as the fill value
   * ```
   * A `rectilinear` grid keeps its edge lengths: the array may grow or shrink within the extent
   * they cover (chunks past the shape stay declared, as the grid allows), not beyond it.
   * @throws ValueShapeError for a shape of the wrong length or negative extents;
   * ChunkGridError for a shape the chunk grid does not cover
   */
  async resize(
    shape: readonly number[],
    options: { signal?: AbortSignal; concurrency?: number } = {},
  ): Promise<this> {
    this.writableStore("resize");
    const { checkNewShape, shrinkChunks } = await loadWritePath();
    const next = checkNewShape(shape, this.ndim);
    this.metadata.chunkGrid.checkArrayShape(next, `resize of /${this.path}`);
    await shrinkChunks(this, next, options);
    await this.updateMetadata({ shape: next }, { signal: options.signal });
    return this;
  }

  /**
   * Appends `value` along `axis`: the array grows by the value's extent there and the value is
   * written into the new region. Returns the new shape.
   * @example
   * ```ts
   * const shape = await arr.append({ data: new Float32Array(100), shape: [1, 100] }); // one more row
   * ```
   * @throws ValueShapeError when the value's other extents do not match the array's
   */
  async append(value: NdValue, axis = 0, options?: SelectionOptions): Promise<number[]> {
    this.writableStore("append to");
    const shape = this.shape;
    if (typeof value !== "object" || value === null || !Array.isArray(value.shape)) {
      throw new ValueShapeError(
        `append takes an n-d value {data, shape, stride?}, got ${formatValue(value)}`,
      );
    }
    if (axis < 0) axis += shape.length;
    if (axis < 0 || axis >= shape.length || value.shape.length !== shape.length) {
      throw new ValueShapeError(
        `Cannot append a value of shape [${value.shape}] along axis ${axis} of an array of shape [${shape}]`,
      );
    }
    shape.forEach((n, i) => {
      if (i !== axis && value.shape[i] !== n) {
        throw new ValueShapeError(
          `Cannot append: axis ${i} of the value has extent ${value.shape[i]}, the array's has ${n}`,
        );
      }
    });
    // Checked before the resize, so a value that cannot be written leaves the array as it was.
    const { resolveValue } = await loadWritePath();
    resolveValue(value, value.shape, this.metadata.dataType);
    const start = shape[axis];
    const next = [...shape];
    next[axis] += value.shape[axis];
    await this.resize(next);
    await this.set(
      next.map((n, i) => (i === axis ? slice(start, n) : null)),
      value,
      options,
    );
    return next;
  }

  /** The size of the elements in bytes (shape times item size), as NumPy's `nbytes`. */
  get nbytes(): number {
    return this.size * this.metadata.dataType.itemSize;
  }

  /**
   * The shard shape of a sharded array (its metadata chunk grid), or undefined. For shards of
   * different shapes (a `rectilinear` grid), the largest edge length along each axis.
   */
  get shards(): number[] | undefined {
    const grid = this.metadata.chunkGrid;
    return shardingOf(this.metadata) ? [...(grid.chunkShape ?? grid.maxChunkShape)] : undefined;
  }

  /**
   * Whether writes through this array fail with `ReadOnlyError`: it was opened with mode `"r"`
   * (or from a group opened so), or its store cannot be written (an `HttpStore` without
   * `writable`, a `ReadOnlyStore`, an `FsStore` opened `readOnly`).
   */
  get readOnly(): boolean {
    return storeIsReadOnly(this.store);
  }

  /**
   * The number of chunks along each axis; for a sharded array, of inner chunks across the whole
   * array (zarr-python's `cdata_shape`).
   */
  get cdataShape(): number[] {
    const sharding = shardingOf(this.metadata);
    const { shape, chunkGrid } = this.metadata;
    if (!sharding) return chunkGrid.gridShape(shape);
    return shape.map((n, i) => Math.ceil(n / sharding.chunkShape[i]));
  }

  /**
   * The number of chunks in the grid: for a sharded array, of inner chunks (more than the
   * stored objects), as zarr-python's `nchunks`.
   */
  get nchunks(): number {
    return product(this.cdataShape);
  }

  /**
   * The number of chunks stored, as zarr-python's `nchunks_initialized`: the objects under the
   * array's prefix whose keys are chunk keys of the grid, counted by listing the store. A
   * stored shard counts for all the inner chunks it may hold.
   * @example
   * ```ts
   * const arr = await createArray(store, { shape: [10], chunks: [2], dtype: "int8" });
   * await arr.set([slice(0, 5)], 1);
   * await arr.nchunksInitialized(); // 3
   * ```
   * @throws UnsupportedOperationError when the store cannot list keys (an `HttpStore`)
   */
  async nchunksInitialized(options: { signal?: AbortSignal } = {}): Promise<number> {
    const { countStoredChunks } = await loadStoredChunks();
    // Listed through the store the chunks go through (a storage transformer's, if any).
    const store = this.access.stored.store;
    return countStoredChunks(store, this.path, this.metadata, options.signal);
  }

  /**
   * The array-to-array codecs (v3, as `{name, configuration}`) or numcodecs filters (v2, as
   * `{id, ...}`), in encode order; a sharded array's are its inner chunks' (zarr-python's
   * `filters`).
   */
  get filters(): NamedConfig[] | NumcodecsConfig[] {
    return codecRoles(this.metadata, this.access.runner.pipeline).filters;
  }

  /**
   * The array-to-bytes codec (v3; a sharded array's inner one), or undefined for v2
   * (zarr-python's `serializer`).
   */
  get serializer(): NamedConfig | undefined {
    return codecRoles(this.metadata, this.access.runner.pipeline).serializer;
  }

  /**
   * The bytes-to-bytes codecs (v3, as `{name, configuration}`; a sharded array's are its inner
   * chunks'), or the numcodecs compressor in a list of at most one (v2), as zarr-python's
   * `compressors`.
   * @example
   * ```ts
   * const arr = await createArray(store, { shape: [100], dtype: "float32", compressors: [{ name: "gzip", configuration: { level: 5 } }] });
   * arr.compressors; // [{ name: "gzip", configuration: { level: 5 }, mustUnderstand: true }]
   * ```
   */
  get compressors(): NamedConfig[] | NumcodecsConfig[] {
    return codecRoles(this.metadata, this.access.runner.pipeline).compressors;
  }

  /** A summary of the array, printable with `String(arr.info)`. */
  get info(): ArrayInfo {
    return arrayInfo(this);
  }

  /**
   * Whether the array holds the data type `dtype` (v3 name or v2 typestr); a type guard, so
   * `get` of a narrowed array returns that type's container.
   *
   * @example
   * ```ts
   * const arr = await openArray(store);
   * if (arr.is("float32")) {
   *   const { data } = await arr.get(); // data: Float32Array
   * }
   * ```
   */
  is<D extends string>(dtype: D): this is ZarrArray<ContainerOf<D>> {
    return isDataTypeNamed(this.metadata.dataType, dtype);
  }

  /** A short human-readable description. */
  toString(): string {
    return `<ZarrArray v${this.zarrFormat} /${this.path} shape=[${this.shape}] dtype=${this.dtype} chunks=[${this.chunks}]>`;
  }

  private writableStore(action = "write to"): Readable & Writable {
    if (!isWritable(this.store))
      throw notWritableError(this.store, joinKey(this.path, "") || "/", action);
    if (storeIsReadOnly(this.store)) throw nodeReadOnlyError(this.store, this.path, action);
    return this.store;
  }
}

import {
  type AnySelection,
  formatShape,
  type ReadOptions,
  type SelectionOptions,
  type SetValue,
  type ZarrArray,
} from "@z/array";
import type { Mask } from "@z/indexing";
import type { DataType, JsonObject } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { AttributeManager, MAXSHAPE_ATTRIBUTE } from "./attrs.js";
import { compressionOf, hasShuffle } from "./compression.js";
import { H5TypeError, H5ValueError } from "./errors.js";
import type { H5File } from "./file.js";
import type { Group } from "./group.js";

/** The parent path of a store path (`"a/b"` -> `"a"`, `"a"` -> `""`). */
export function parentPath(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut < 0 ? "" : path.slice(0, cut);
}

/**
 * h5py's `Dataset`, over a Zarr array. Properties are synchronous (the metadata is loaded);
 * reads, writes and resizes are async.
 *
 * | h5py | here |
 * |---|---|
 * | `dset[...]`, `dset[()]` | `await dset.get()` |
 * | `dset[2:5, ::2]` | `await dset.get([slice(2, 5), slice(null, null, 2)])` |
 * | `dset[[1, 3], :]` | `await dset.get([[1, 3], null])` |
 * | `dset[mask]` | `await dset.get(mask)` |
 * | `dset[0:2] = x` | `await dset.set([slice(0, 2)], x)` |
 * | `dset.resize((20, 10))`, `dset.resize(20, axis=0)` | `await dset.resize([20, 10])`, `await dset.resize(20, 0)` |
 * | `len(dset)`, `for row in dset` | `dset.length`, `for await (const row of dset)` |
 *
 * Reads return `{data, shape, stride}` (C order); `dset.array` is the Zarr array for everything
 * else (`getOrthogonal`, `getCoordinates`, `getBlocks`, `info`, ...).
 */
export class Dataset implements AsyncIterable<Chunk> {
  /** The dataset's attributes (h5py's `dset.attrs`). */
  readonly attrs: AttributeManager;

  constructor(
    /** The file the dataset belongs to. */
    readonly file: H5File,
    /** The Zarr array underneath. */
    readonly array: ZarrArray,
  ) {
    this.attrs = new AttributeManager({
      name: this.name,
      readAttributes: () => this.array.metadata.attributes,
      checkWritable: () => this.file.requireWritable("write attributes of", this.name),
      writeAttributes: async (attributes) => {
        await this.array.updateAttributes(attributes, { replace: true });
        await this.file.syncConsolidated({
          written: [[this.array.path, { kind: "array", metadata: this.array.metadata }]],
        });
      },
    });
  }

  /** The store path. */
  get path(): string {
    return this.array.path;
  }
  /** The full name, `/group/dataset`. */
  get name(): string {
    return `/${this.array.path}`;
  }
  /** The group holding the dataset. */
  get parent(): Promise<Group> {
    return this.file.groupAt(parentPath(this.array.path));
  }
  /** The shape. */
  get shape(): number[] {
    return this.array.shape;
  }
  /** The number of dimensions. */
  get ndim(): number {
    return this.array.ndim;
  }
  /** The number of elements. */
  get size(): number {
    return this.array.size;
  }
  /** Bytes of the elements uncompressed. */
  get nbytes(): number {
    return this.array.nbytes;
  }
  /** The data type's name as NumPy prints it for native byte order (`"float32"`, `"int16"`, `"bool"`). */
  get dtype(): string {
    return this.array.dtype;
  }
  /** The data type object. */
  get dataType(): DataType {
    return this.array.dataType;
  }
  /** The chunk shape (always chunked in Zarr). */
  get chunks(): number[] {
    return this.array.chunks;
  }
  /** `"gzip"`, `"zstd"`, `"blosc"`, `"lz4"` or null. */
  get compression(): string | null {
    return compressionOf(this.array.metadata.codecs).compression;
  }
  /** The compression's setting: the level for gzip and zstd, `{cname, clevel, shuffle}` for blosc. */
  get compression_opts(): unknown {
    return compressionOf(this.array.metadata.codecs).opts;
  }
  /** Whether the byte-shuffle filter is on. */
  get shuffle(): boolean {
    return hasShuffle(this.array.metadata.codecs);
  }
  /** The fill value: what never-written elements read as. */
  get fillvalue(): unknown {
    return this.array.fillValue;
  }
  /**
   * The largest shape `resize` accepts, `null` for unlimited axes. Kept in the
   * `_H5_MAXSHAPE` attribute; a Zarr array written by other tools has none and may grow
   * without limit.
   */
  get maxshape(): (number | null)[] {
    const stored = this.array.metadata.attributes[MAXSHAPE_ATTRIBUTE];
    if (
      Array.isArray(stored) &&
      stored.length === this.ndim &&
      stored.every((m) => m === null || typeof m === "number")
    ) {
      return stored as (number | null)[];
    }
    return this.shape.map(() => null);
  }
  /**
   * The extent of the first axis (`len(dset)`).
   * @throws H5TypeError for a scalar (0-d) dataset
   */
  get length(): number {
    if (this.ndim === 0)
      throw new H5TypeError(`Attempt to take the length of the scalar dataset ${this.name}`);
    return this.shape[0];
  }

  /**
   * Reads a selection (h5py's `dset[...]`): nothing for everything; integers, slices, `null`;
   * index lists and boolean masks per axis (fancy indexing, orthogonal); a boolean mask of the
   * dataset's shape; or an explicit `{orthogonal}`, `{coordinates}`, `{mask}`, `{blocks}`.
   * `options.out` reads into a container the caller reuses (h5py's `read_direct`; see
   * {@link ReadOptions.out}).
   * @throws BoundsError, SelectionError; ValueTypeError, ValueShapeError for an unfit `out`
   */
  async get(selection?: AnySelection | Mask, options?: ReadOptions): Promise<Chunk> {
    this.file.assertOpen();
    if (selection === undefined) return this.array.get(undefined, options);
    return this.array.getSelection(selection as AnySelection, options);
  }

  /**
   * Writes a selection (h5py's `dset[...] = value`): a scalar, or a value of the selection's shape.
   * @throws FileModeError on a read-only file; BoundsError, SelectionError, ValueShapeError
   */
  async set(
    selection: AnySelection | undefined,
    value: SetValue,
    options?: SelectionOptions,
  ): Promise<void> {
    this.file.requireWritable("write to", this.name);
    await this.array.setSelection(selection ?? this.shape.map(() => null), value, options);
  }

  /**
   * Changes the shape (h5py's `resize(size, axis=None)`): `size` is the new shape, or with
   * `axis`, the new extent of that axis. Growing reads the fill value in the new region;
   * shrinking drops what falls outside.
   * @throws H5ValueError beyond `maxshape`; H5TypeError for a shape of the wrong length (as
   *   h5py); FileModeError
   */
  async resize(size: number | readonly number[], axis?: number): Promise<void> {
    this.file.requireWritable("resize", this.name);
    let next: number[];
    if (axis !== undefined) {
      if (typeof size !== "number")
        throw new H5ValueError("With an axis, the size must be one integer");
      const a = axis < 0 ? axis + this.ndim : axis;
      if (a < 0 || a >= this.ndim)
        throw new H5ValueError(`Invalid axis ${axis} for a ${this.ndim}-d dataset`);
      next = this.shape.map((n, i) => (i === a ? size : n));
    } else {
      next = typeof size === "number" ? [size] : [...size];
    }
    if (next.length !== this.ndim) {
      throw new H5TypeError(
        `New shape ${formatShape(next)} must have ${this.ndim} dimensions like ${formatShape(this.shape)}`,
      );
    }
    const maxshape = this.maxshape;
    next.forEach((n, i) => {
      const max = maxshape[i];
      if (!Number.isInteger(n) || n < 0)
        throw new H5ValueError(`Invalid extent ${n} for axis ${i}`);
      if (max !== null && n > max) {
        throw new H5ValueError(
          `Unable to resize ${this.name} to ${formatShape(next)}: axis ${i} cannot exceed the maximum ${max} (maxshape ${formatShape(maxshape.map((m) => m ?? -1)).replaceAll("-1", "None")})`,
        );
      }
    });
    await this.array.resize(next);
    await this.file.syncConsolidated({
      written: [[this.array.path, { kind: "array", metadata: this.array.metadata }]],
    });
  }

  /**
   * The rows along the first axis, one read each (`for row in dset`).
   * @throws H5TypeError for a scalar dataset
   */
  async *[Symbol.asyncIterator](): AsyncIterator<Chunk> {
    if (this.ndim === 0)
      throw new H5TypeError(`Can't iterate over the scalar dataset ${this.name}`);
    for (let i = 0; i < this.shape[0]; i++) yield await this.get([i]);
  }

  /** All elements as a flat list in C order (a convenience for small datasets). */
  async toArray(): Promise<unknown[]> {
    const { data } = await this.get();
    return Array.from(data as ArrayLike<unknown>);
  }

  /** The dataset's attributes as a plain object (including none of the reserved ones). */
  get attributes(): JsonObject {
    return Object.fromEntries(this.attrs.items());
  }

  /** Like h5py's repr: `<HDF5-like dataset "/a/b": shape (3, 4), type "float32">`. */
  toString(): string {
    return `<Zarr h5 dataset ${JSON.stringify(this.name)}: shape ${formatShape(this.shape)}, type ${JSON.stringify(this.dtype)}>`;
  }
}

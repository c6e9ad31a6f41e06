import { type Slice, slice } from "@z/indexing";
import { chunkRegion } from "@z/indexing/internal";
import {
  type ArrayMetadata,
  arrayMetadataToV2Json,
  arrayMetadataToV3Json,
  MetadataError,
} from "@z/metadata";
import { product } from "@z/ndarray";
import { type Readable, throwIfAborted, type Writable } from "@z/store-core";
import type { Progress } from "../io/chunk-access.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import type { ZarrArray } from "../nodes/array.js";
import { bumpAllEpochs } from "../write/key-lock.js";

/** Options of {@link copyArrayElements}. */
export interface CopyElementsOptions {
  /** Target chunks (or shards) copied at once (default 8). */
  concurrency?: number;
  /** Abort the copy; regions in flight finish, no new ones start. */
  signal?: AbortSignal;
  /** Called after each region (by default one target chunk or shard). */
  onProgress?: (progress: Progress) => void;
  /**
   * How many target chunks (shards for a sharded target) one task copies along each axis
   * (default one chunk): a task reads its whole region of the source at once, so a region
   * aligned to the source's chunks decodes each of them once, while memory grows with the
   * region. Not used when stored chunks are copied as bytes.
   */
  regionChunks?: readonly number[];
}

/**
 * What {@link copyArrayElements} did.
 * @inline
 */
export interface CopiedElements {
  /** Regions the copy went through: target chunks (shards), or groups of them (`regionChunks`). */
  regions: number;
  /** Whether stored chunks were copied as bytes (same layout), without decoding. */
  raw: boolean;
}

/** The metadata document with what does not affect stored chunks left out. */
function storedLayout(meta: ArrayMetadata): string {
  const doc = meta.zarrFormat === 3 ? arrayMetadataToV3Json(meta) : arrayMetadataToV2Json(meta);
  const { attributes: _a, dimension_names: _d, ...layout } = doc;
  // A v2 array without a separator uses ".", as readers default (readRaw also finds the
  // nested keys some old writers used).
  // Fill values compared as values: `0` and `false` are the same bool fill value.
  if (meta.fillValueJson !== null)
    layout.fill_value = meta.dataType.fillToJson(meta.fillValue, meta.zarrFormat);
  if (meta.zarrFormat === 2) {
    layout.dimension_separator ??= ".";
    // Memory order means nothing to chunks of one dimension or fewer.
    if (meta.shape.length <= 1) layout.order = "C";
  }
  // Fill values of 64-bit types are bigints.
  return JSON.stringify(layout, (_, v) => (typeof v === "bigint" ? `${v}n` : v));
}

/**
 * Whether two arrays store their chunks the same way (grid, codecs, fill value, key encoding),
 * so stored chunks of one are stored chunks of the other, byte for byte.
 */
export function sameStoredLayout(a: ArrayMetadata, b: ArrayMetadata): boolean {
  return storedLayout(a) === storedLayout(b);
}

/**
 * How the elements of a block read from `source` become elements `target` takes. A v2 object
 * array of strings or bytes holds `0` where its fill value (zarr-python 2's default) fills
 * missing chunks; numcodecs writes such elements as the empty string or bytes, and so does a
 * copy into a string or bytes type, which take `null` for the empty value.
 */
function elementConversion(
  source: ZarrArray,
  target: ZarrArray,
): ((data: unknown) => void) | undefined {
  if (source.dataType.name !== "object" || target.dataType.name === "object") return undefined;
  return (data) => {
    const items = data as unknown[];
    for (let i = 0; i < items.length; i++) if (items[i] === 0) items[i] = null;
  };
}

/** The TypedArray classes whose results a copy may read into again (not complex or bool arrays). */
const PLAIN_ARRAYS = new Set<unknown>([
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigInt64Array,
  BigUint64Array,
]);

type Plain = Uint8Array & { subarray(start: number, end: number): Plain };

/**
 * The results of regions copied, read into again by the next regions: a copy in regions of
 * many chunks allocates each region's buffer once rather than per region, which keeps the
 * allocator from taking buffers of a region's size for the chunk-sized ones that follow (and
 * holding them long after they are freed).
 */
class SpareRegions {
  private readonly free: Plain[] = [];

  /** A spare buffer of at least `count` elements, if there is one. */
  take(count: number): Plain | undefined {
    const at = this.free.findIndex((b) => b.length >= count);
    return at < 0 ? undefined : this.free.splice(at, 1)[0];
  }

  /** Keeps a region's result (one element per item, of a plain TypedArray class) for reuse. */
  give(data: unknown, count: number): void {
    const plain = data as Plain;
    if (PLAIN_ARRAYS.has(plain?.constructor) && plain.length >= count) this.free.push(plain);
  }
}

/** Every grid point of a chunk grid, in C order, one at a time. */
function* gridPoints(grid: readonly number[]): Generator<number[]> {
  if (grid.some((n) => n === 0)) return;
  const coords = grid.map(() => 0);
  for (;;) {
    yield [...coords];
    let axis = grid.length - 1;
    while (axis >= 0 && ++coords[axis] === grid[axis]) coords[axis--] = 0;
    if (axis < 0) return;
  }
}

/** The region of `per` target chunks along each axis at block `coords`, clipped to the array. */
function regionOfChunks(
  meta: ArrayMetadata,
  coords: readonly number[],
  per: readonly number[],
  grid: readonly number[],
): Slice[] {
  const first = chunkRegion(
    meta.chunkGrid.axes,
    coords.map((c, axis) => c * per[axis]),
    meta.shape,
  );
  const last = chunkRegion(
    meta.chunkGrid.axes,
    coords.map((c, axis) => Math.min((c + 1) * per[axis], grid[axis]) - 1),
    meta.shape,
  );
  return first.map((s, axis) => slice(s.start, last[axis].stop));
}

/**
 * Copies every element of `source` into `target`, an array of the same shape, whatever their
 * chunks, codecs and formats. The work is split along the target's chunk grid (its shards for
 * a sharded target), and each target chunk or shard is written by exactly one task, whole:
 * nothing is read back, so no two tasks ever read-modify-write the same stored object. When
 * both arrays store chunks the same way (grid, codecs, fill value, key encoding), the stored
 * bytes are copied without decoding. A v2 object array's `0` elements (its missing chunks
 * under zarr-python 2's default fill value) become empty strings or bytes in a string or bytes
 * target, as numcodecs writes them.
 * @throws MetadataError when the shapes differ; the read and write errors of the arrays
 */
export async function copyArrayElements(
  source: ZarrArray,
  target: ZarrArray,
  options: CopyElementsOptions = {},
): Promise<CopiedElements> {
  if (
    source.shape.length !== target.shape.length ||
    source.shape.some((n, i) => n !== target.shape[i])
  ) {
    throw new MetadataError(
      `Cannot copy /${source.path} into /${target.path}: the source's shape is [${source.shape}], the target's [${target.shape}]`,
    );
  }
  const meta = target.metadata;
  const chunkGrid = meta.chunkGrid.gridShape(meta.shape);
  const raw = sameStoredLayout(source.metadata, meta);
  const per = raw ? undefined : options.regionChunks;
  const grid = per ? chunkGrid.map((n, axis) => Math.ceil(n / per[axis])) : chunkGrid;
  const total = product(grid);
  // Raw chunks are written where the target's reads look: through its storage transformers.
  const store = target.access.stored.store as Readable & Writable;
  const convert = elementConversion(source, target);
  const { signal } = options;
  const spare = new SpareRegions();
  let done = 0;
  await forEachConcurrent(
    gridPoints(grid),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (coords) => {
      throwIfAborted(signal);
      if (raw) {
        const bytes = await source.access.stored.get(coords, { signal });
        if (bytes !== undefined) await store.set(target.chunkKey(coords), bytes, { signal });
      } else {
        // The region is one whole target chunk (or shard), so the write replaces it without
        // reading what was stored; the source may be read in any pieces.
        const region: Slice[] = per
          ? regionOfChunks(meta, coords, per, chunkGrid)
          : chunkRegion(meta.chunkGrid.axes, coords, meta.shape);
        const count = region.reduce((n, s) => n * ((s.stop as number) - (s.start as number)), 1);
        const base = per ? spare.take(count) : undefined;
        const out = base?.subarray(0, count);
        const block = await source.get(region, { signal, concurrency: 1, ...(out && { out }) });
        convert?.(block.data);
        await target.set(region, block, { signal, concurrency: 1 });
        if (per) spare.give(base ?? block.data, count);
      }
      options.onProgress?.({ done: ++done, total });
    },
    signal,
  );
  // Raw chunk writes bypass the key locks, whose counters caches of decoded chunks check.
  if (raw) bumpAllEpochs();
  return { regions: total, raw };
}

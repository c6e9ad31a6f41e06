import type { Indexer } from "@z/indexing";
import { layoutChunkShape } from "@z/indexing/internal";
import type { ArrayMetadata } from "@z/metadata";
import type { Chunk, Container } from "@z/ndarray";
import { cOrderStrides, isCContiguous, product } from "@z/ndarray";
import { throwIfAborted } from "@z/store-core";
import { ValueShapeError } from "../errors.js";
import { loadPlacement } from "../lazy-features.js";
import type { AccessOptions, ChunkAccess, Progress } from "./chunk-access.js";
import { checkOut } from "./read-into.js";
import { isSharedContainer, sharedMemoryAvailable } from "./shared-result.js";

export type { Progress } from "./chunk-access.js";

/** Options of the reads (`get`, `getOrthogonal`, ...) and writes (`set`, ...) of an array. */
export interface SelectionOptions extends AccessOptions {
  /** Called after each chunk. */
  onProgress?: (progress: Progress) => void;
}

/**
 * Options of the reads of an array (`get`, `getOrthogonal`, `getCoordinates`, `getMask`,
 * `getBlocks`, `getSelection`, `read`).
 *
 * @typeParam C - the element container of the array's data type
 */
export interface ReadOptions<C extends Container = Container> extends SelectionOptions {
  /**
   * A container to read into instead of a new one: the selected elements are written into it
   * in C order and the result's `data` is this very object. It must be of the class the data
   * type's reads create (a `Float32Array` for float32, a `Complex64Array` for complex64, a
   * plain array for strings) and exactly as long as such a result would be (the selection's
   * element count, times 2 for complex); otherwise the read throws a ValueTypeError (class) or
   * ValueShapeError (length) before it reads any chunk. Every element is overwritten, the
   * fill value included where chunks are missing, so leftovers of an earlier read never show.
   * Reusing one `out` for many reads of the same shape spares the allocation and first-touch
   * page faults of a new result each time.
   *
   * An aborted or failed read may leave `out` partly written: some elements from this read,
   * the rest as they were.
   */
  out?: C;
  /**
   * Whether the result may be a TypedArray over a SharedArrayBuffer, so that the decode pool's
   * workers copy each chunk's part into it themselves: the calling thread then only reads and
   * dispatches, and the result's first-touch page faults spread over the workers. Default true;
   * it applies to reads of TypedArray data types that decode in a worker pool, in Node and on
   * cross-origin isolated pages. A shared result behaves as any TypedArray, except that its
   * buffer cannot be transferred (`postMessage(x, [x.buffer])` throws) and a message shares it
   * rather than copying it: pass false when you will transfer the result. An `out` in shared
   * memory is filled the same way.
   */
  sharedMemory?: boolean;
}

/** The largest number of elements one read may return (a TypedArray's practical limit). */
export const MAX_SELECTION_ELEMENTS = 2 ** 32 - 1;

/** Counts finished chunks and reports each to `options.onProgress`. */
export function progressReporter(options: SelectionOptions, total: number): () => void {
  let done = 0;
  const report = options.onProgress;
  return () => {
    done++;
    report?.({ done, total });
  };
}

function isZero(value: unknown): boolean {
  return value === 0 ? !Object.is(value, -0) : value === 0n || value === false;
}

/**
 * Reads a selection: every chunk it touches is fetched and decoded (a bounded number at a
 * time) and its selected part copied into one C-order result.
 */
export async function readSelection(
  access: ChunkAccess,
  metadata: ArrayMetadata,
  indexer: Indexer,
  options: ReadOptions = {},
): Promise<Chunk> {
  const { dataType, fillValue } = metadata;
  const shape = [...indexer.shape];
  const n = product(shape);
  if (n > MAX_SELECTION_ELEMENTS) {
    throw new ValueShapeError(
      `The selection has ${n} elements, more than one read can return; select a smaller region`,
    );
  }
  const out = options.out === undefined ? undefined : checkOut(options.out, dataType, n, shape);
  const whole = await readWholeChunk(access, metadata, indexer, options, out);
  if (whole) return whole;
  const place =
    options.sharedMemory !== false &&
    indexer.strided === true &&
    (out === undefined ? sharedMemoryAvailable() : isSharedContainer(out)) &&
    access.placesInWorkers?.(options) === true;
  const shared =
    place && out === undefined ? (await loadPlacement()).createShared(dataType, n) : undefined;
  const data = out ?? shared ?? dataType.create(n);
  const placeInto =
    place && isSharedContainer(data) ? { out: data, lanes: dataType.lanes } : undefined;
  // A new container is all zeros; only other fill values need writing where chunks are missing.
  // The caller's `out` holds whatever it held before, so missing chunks always need the fill.
  const fillNeeded = out !== undefined || !isZero(fillValue);
  const tick = progressReporter(options, indexer.partCount());
  throwIfAborted(options.signal);
  await access.readParts(
    indexer.parts(),
    (part, chunk, placed) => {
      if (chunk) part.read(chunk, data, dataType.lanes);
      else if (fillNeeded && !placed) part.fill(data, dataType, fillValue);
      tick();
    },
    placeInto ? { ...options, placeInto } : options,
  );
  return { data, shape, stride: cOrderStrides(shape) };
}

/**
 * A read of exactly one whole chunk: the decoded chunk itself when nothing else holds its
 * memory (no allocation, no copy), one copy when it is shared with the store or the caller
 * gave `out`, the fill value when it was never written.
 */
async function readWholeChunk(
  access: ChunkAccess,
  metadata: ArrayMetadata,
  indexer: Indexer,
  options: SelectionOptions,
  out: Container | undefined,
): Promise<Chunk | undefined> {
  if (!access.readWhole || indexer.partCount() !== 1) return undefined;
  const shape = [...indexer.shape];
  if (shape.length !== access.chunkShape.length) return undefined;
  const [part] = indexer.parts();
  const chunkShape = layoutChunkShape(access.chunkShape, part.coords);
  if (!shape.every((n, i) => n === chunkShape[i])) return undefined;
  if (!part.covers(access.chunkShape, metadata.shape)) return undefined;
  const found = await access.readWhole(part.coords, options);
  const stride = cOrderStrides(shape);
  const { dataType, fillValue } = metadata;
  let data: Chunk["data"];
  // The decoded chunk is the result only when the part takes it in order: a reversed slice or
  // a permuted index list covers the chunk too, but must be copied element by element.
  if (!out && found?.owned && isCContiguous(found.chunk) && part.inOrder?.() === true) {
    data = found.chunk.data;
  } else {
    data = out ?? dataType.create(product(shape));
    if (found) part.read(found.chunk, data, dataType.lanes);
    else if (out || !isZero(fillValue)) part.fill(data, dataType, fillValue);
  }
  options.onProgress?.({ done: 1, total: 1 });
  return { data, shape, stride };
}

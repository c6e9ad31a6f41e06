import {
  type AxisSelection,
  type BasicSelection,
  type ChunkProjection,
  chunkProjections,
  chunkView,
  copyChunkToOutput,
  copyStrided,
  countChunkProjections,
  coversChunk,
  fillRegion,
  normalizeSelection,
  outputView,
  projectionShape,
  selectionShape,
} from "@z/indexing";
import { type Chunk, cOrderStrides, product } from "@z/metadata";
import { throwIfAborted } from "@z/store-core";
import type { ChunkIo } from "./chunk-io.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
import { ValueShapeError } from "./errors.js";
import { resolveValue, type SetValue } from "./values.js";

/** Progress of a read or write: chunks done out of chunks touched. */
export interface Progress {
  /** Chunks finished. */
  done: number;
  /** Chunks the operation touches. */
  total: number;
}

/** Options of `get` and `set`. */
export interface SelectionOptions {
  /** Abort the operation; chunks already in flight finish, no new ones start. */
  signal?: AbortSignal;
  /** How many chunks to read or write at once (default 8). */
  concurrency?: number;
  /** Called after each chunk. */
  onProgress?: (progress: Progress) => void;
}

/** The largest number of elements one read may return (a TypedArray's practical limit). */
export const MAX_SELECTION_ELEMENTS = 2 ** 32 - 1;

function progressReporter(options: SelectionOptions, total: number): () => void {
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
 * Reads a basic selection: every chunk it touches is fetched and decoded (a bounded number at
 * a time) and its selected part copied into one C-order result.
 */
export async function readSelection(io: ChunkIo, selection: BasicSelection, options: SelectionOptions = {}): Promise<Chunk> {
  const { dataType, fillValue, shape } = io.metadata;
  const dims = normalizeSelection(selection, shape);
  const outShape = selectionShape(dims);
  const n = product(outShape);
  if (n > MAX_SELECTION_ELEMENTS) {
    throw new ValueShapeError(`The selection has ${n} elements, more than one read can return; select a smaller region`);
  }
  const data = dataType.create(n);
  const outStride = cOrderStrides(outShape);
  const fillNeeded = !isZero(fillValue);
  const tick = progressReporter(options, countChunkProjections(dims, io.chunkShape));
  throwIfAborted(options.signal);
  await forEachConcurrent(
    chunkProjections(dims, io.chunkShape),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (projection) => {
      const chunk = await io.read(projection.coords, options);
      const out = outputView(data, outStride, dims, projection);
      if (chunk) copyChunkToOutput(chunk, projection, out, dataType.lanes);
      else if (fillNeeded) fillRegion(dataType, out, projectionShape(projection), fillValue);
      tick();
    },
    options.signal,
  );
  return { data, shape: outShape, stride: outStride };
}

/**
 * Writes a value into a basic selection. Chunks the selection covers entirely are replaced
 * without being read; the others are read, modified and written back. Chunks that end up
 * equal to the fill value are deleted rather than stored.
 */
export async function writeSelection(
  io: ChunkIo,
  selection: BasicSelection,
  value: SetValue,
  options: SelectionOptions = {},
): Promise<void> {
  const { dataType, fillValue, shape } = io.metadata;
  const dims = normalizeSelection(selection, shape);
  const valueShape = selectionShape(dims);
  const resolved = resolveValue(value, valueShape, dataType);
  const tick = progressReporter(options, countChunkProjections(dims, io.chunkShape));
  throwIfAborted(options.signal);
  await forEachConcurrent(
    chunkProjections(dims, io.chunkShape),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (projection) => {
      const full = coversChunk(projection, io.chunkShape, shape);
      if (full && "scalar" in resolved && dataType.isAllFill(fillArrayOf(resolved.scalar, dataType), fillValue)) {
        await io.delete(projection.coords, options);
        tick();
        return;
      }
      const chunk = full ? io.fillChunk() : await readForUpdate(io, projection);
      const target = chunkView(chunk, projection);
      const region = projectionShape(projection);
      if ("scalar" in resolved) fillRegion(dataType, target, region, resolved.scalar);
      else copyStrided(sourceView(resolved.chunk, dims, projection), target, region, dataType.lanes);
      await io.write(projection.coords, chunk, options);
      tick();
    },
    options.signal,
  );
}

function fillArrayOf(value: unknown, dataType: ChunkIo["metadata"]["dataType"]) {
  const one = dataType.create(1);
  dataType.setElement(one, 0, value);
  return one;
}

/** A writable C-order copy of a stored chunk (or a fill-valued chunk when it is missing). */
async function readForUpdate(io: ChunkIo, projection: ChunkProjection): Promise<Chunk> {
  const stored = await io.read(projection.coords);
  const chunk = io.fillChunk();
  if (stored) {
    // Decoded chunks may be views of the store's own buffer; never modify them in place.
    copyStrided(
      { data: stored.data, offset: 0, stride: stored.stride },
      { data: chunk.data, offset: 0, stride: chunk.stride },
      chunk.shape,
      io.metadata.dataType.lanes,
    );
  }
  return chunk;
}

/** The part of the value that goes into one chunk, as a view with one stride per array axis. */
function sourceView(value: Chunk, dims: readonly AxisSelection[], projection: ChunkProjection) {
  return outputView(value.data, value.stride, dims, projection);
}

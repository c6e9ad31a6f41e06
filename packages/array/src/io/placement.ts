// Reads whose workers copy chunk parts straight into a result in shared memory. Loaded with the
// first such read (one that decodes in a worker pool), so an app that decodes on its page's
// thread does not download it.
import type { PlaceTarget } from "@z/codecs";
import { decodeIntoWith } from "@z/codecs/internal";
import type { DataType } from "@z/metadata";
import { type Chunk, type ChunkRegion, isTypedArray, type TypedArray } from "@z/ndarray";
import { type ArrayChunks, type GroupReader, located } from "./array-chunks.js";
import type { AccessOptions } from "./chunk-access.js";
import type { PipelineRunner, WholeDecodeOptions } from "./pipeline-runner.js";

/**
 * Reads groups of one whole chunk each into a result in shared memory: a worker decodes each
 * chunk and copies its parts into the result, so this thread only reads bytes and dispatches.
 * A store that reads into a caller's buffer reads into one of a few buffers in shared memory
 * (one per concurrent read), which the worker reads in place: no allocation, transfer or copy
 * of stored bytes per chunk. Parts that are no strided region, and chunks the pool decodes
 * inline, are handed to `use`.
 */
export function placingReader(
  chunks: ArrayChunks,
  options: AccessOptions,
  into: { out: TypedArray; lanes: number },
): GroupReader {
  const { signal } = options;
  let size = chunks.stored.readsInto
    ? chunks.runner.reusableBufferSize({ workers: false })
    : undefined;
  const free: Uint8Array[] = [];
  const fetch = async (coords: number[], buffer: Uint8Array | undefined) => {
    if (buffer === undefined || size === undefined) return chunks.stored.get(coords, { signal });
    const read = await chunks.stored.getInto(coords, buffer, { signal });
    if (typeof read !== "number") return read;
    size = Math.max(size, read); // larger than the buffers: read the usual way, grow them
    return chunks.stored.get(coords, { signal });
  };
  return async (group, use, placed) => {
    const { coords } = group;
    const regions: ChunkRegion[] = [];
    for (const { part } of group.items) {
      const region = part.region?.();
      if (region === undefined) {
        use([(await chunks.readChunk(coords, options))?.chunk]);
        return;
      }
      regions.push(region);
    }
    let buffer = size === undefined ? undefined : free.pop();
    if (size !== undefined && (buffer === undefined || buffer.length < size))
      buffer = new Uint8Array(new SharedArrayBuffer(size));
    try {
      const bytes = await fetch(coords, buffer);
      if (bytes === undefined) {
        use(group.items.map(() => undefined));
        return;
      }
      // Bytes read into a shared buffer are shared with the worker, never taken by it.
      const fresh = bytes.buffer !== buffer?.buffer && chunks.stored.freshReads;
      let chunk: Chunk | undefined;
      try {
        chunk = await placeChunk(
          chunks.runner,
          coords,
          bytes,
          { out: into.out, regions, lanes: into.lanes },
          { ...options, fresh, again: () => chunks.stored.get(coords, { signal }) },
        );
      } catch (error) {
        throw located(error, chunks.stored.key(coords));
      }
      if (chunk === undefined) placed();
      else use(group.items.map(() => chunk));
    } finally {
      if (buffer !== undefined) free.push(buffer);
    }
  };
}

/**
 * Decodes a whole chunk in a worker that copies `target.regions` of it into the shared
 * `target.out` itself: undefined once they are in place, else the decoded chunk for the caller
 * to copy (no pool for this read, or the pool decoded it inline after all).
 * @throws DecodeError / ChecksumError
 */
async function placeChunk(
  runner: PipelineRunner,
  coords: readonly number[],
  bytes: Uint8Array,
  target: PlaceTarget,
  options: WholeDecodeOptions,
): Promise<Chunk | undefined> {
  const pool = runner.poolDecoder.poolFor(options);
  if (!pool || !runner.metadata.chunkGrid.chunkShape)
    return (await runner.decode(coords, bytes, options)).chunk;
  const { signal, fresh } = options;
  const where = { signal, transfer: fresh === true };
  const inline = (stored: Uint8Array) => runner.pipeline.decode(stored);
  return decodeIntoWith(runner.poolDecoder, pool, bytes, target, where, inline, options.again);
}

/**
 * A new container of `n` elements of `dataType` over a SharedArrayBuffer, of the class its
 * reads create (Complex64Array, BoolArray, ...); undefined for data types whose container is
 * no TypedArray. Zero-filled, as a new container is, and untouched: its pages are first
 * touched by whichever thread writes them.
 */
export function createShared(dataType: DataType, n: number): TypedArray | undefined {
  const sample = dataType.create(0);
  if (!isTypedArray(sample)) return undefined;
  const length = n * dataType.create(1).length;
  const Container = sample.constructor as new (
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ) => TypedArray;
  const buffer = new SharedArrayBuffer(length * sample.BYTES_PER_ELEMENT);
  return new Container(buffer, 0, length);
}

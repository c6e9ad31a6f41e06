import type { SubchunkWrite } from "@z/codecs";
import { encodeInPool } from "@z/codecs/internal";
import { locateError } from "@z/errors";
import type { WriteSource } from "@z/indexing";
import type { ArrayMetadata } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import type { ArrayChunks } from "../io/array-chunks.js";
import type { AccessOptions } from "../io/chunk-access.js";
import { type ChunkGroup, coversChunk } from "../io/chunk-groups.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";

/**
 * Writes `source` into groups of parts, one stored chunk per group (a bounded number at a time),
 * through the chunk's pipeline's partial encoder (which rewrites only the sub-chunks the parts
 * touch, or the whole chunk when the pipeline has no partial I/O). A group that covers its chunk
 * replaces it without reading it, a group that covers it with the fill value deletes it; any
 * other is a read-modify-write of the chunk, in turn with the other writers of it. A chunk left
 * all fill value is deleted. `done` is called once per part.
 * @throws DecodeError / ChecksumError naming the chunk's key, for a corrupt stored chunk
 */
export async function writeGroups(
  chunks: ArrayChunks,
  groups: Iterable<ChunkGroup>,
  source: WriteSource,
  options: AccessOptions,
  done: () => void,
): Promise<void> {
  const { stored, runner, metadata, chunkShape, subchunkShape } = chunks;
  const { dataType, fillValue, shape } = metadata;
  const { signal } = options;
  const scalarIsFill = "scalar" in source && isFill(dataType, source.scalar, fillValue);
  await forEachConcurrent(
    groups,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (group) => {
      const { coords } = group;
      const pipeline = runner.pipelineFor(coords);
      const writes = group.items.map(
        ({ part, sub }): SubchunkWrite => ({
          coords: sub,
          covers: part.covers(chunkShape, shape),
          write: (chunk) => part.write(chunk, source, dataType),
        }),
      );
      // Whole chunks encode in the write's worker pool (or the default one), as reads decode.
      const encodeChunk = (chunk: Chunk, rebuild: () => Chunk) =>
        encodeInPool(pipeline, chunk, rebuild, { signal, workers: options.workers });
      const io = { signal, workers: options.workers, encodeChunk };
      const encode = (current: Uint8Array | undefined) =>
        pipeline.partialEncode(current, writes, io).catch((error: unknown) => {
          const key = stored.key(coords);
          throw locateError(error, `${subchunkShape ? "shard" : "chunk"} /${key}`, { key });
        });
      const axes = metadata.chunkGrid.axes;
      const whole = coversChunk(
        group,
        chunkShape,
        subchunkShape,
        runner.shapeOf(coords),
        axes,
        shape,
      );
      if (whole && scalarIsFill) await stored.delete(coords, { signal });
      else if (whole) await stored.replace(coords, await encode(undefined), { signal });
      else await stored.update(coords, encode, { signal });
      for (let i = 0; i < group.items.length; i++) done();
    },
    signal,
  );
}

/** Whether a scalar equals the fill value (NaN equal to NaN), by the data type's own rule. */
function isFill(dataType: ArrayMetadata["dataType"], value: unknown, fillValue: unknown): boolean {
  const one = dataType.create(1);
  dataType.setElement(one, 0, value);
  return dataType.isAllFill(one, fillValue);
}

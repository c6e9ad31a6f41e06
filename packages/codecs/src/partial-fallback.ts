/**
 * Partial I/O for pipelines that cannot do it (a compressor after the sharding codec, or a plain
 * `bytes` codec): the chunk is its only sub-chunk, read and decoded whole, and rewritten whole.
 * The sharding codec relies on it for inner chunks whose codecs offer no partial I/O. Whole
 * chunks decode here on the calling thread: the array and the sharding codec send them to a
 * worker pool themselves (without pulling the pool into every pipeline, workers' own included).
 */
import type { ByteRangeSource } from "./byte-source.js";
import { writableChunk } from "./chunk-copy.js";
import { CodecError } from "./errors.js";
import type { PartialDecoder, PartialIoOptions, SubchunkWrite } from "./partial.js";
import type { CodecPipeline } from "./pipeline.js";

/** Throws unless every coordinate is 0: the whole chunk is the only sub-chunk. */
function checkWhole(coords: readonly number[], pipeline: CodecPipeline): void {
  if (coords.some((c) => c !== 0)) {
    throw new CodecError(
      `Sub-chunk [${coords}] is outside the grid of [${pipeline.subchunkShape}] sub-chunks of a [${pipeline.spec.shape}] chunk`,
    );
  }
}

/** Reads and decodes the whole chunk of `source`; undefined when the source does not exist. */
export async function wholeChunkDecoder(
  pipeline: CodecPipeline,
  source: ByteRangeSource,
  options: PartialIoOptions = {},
): Promise<PartialDecoder | undefined> {
  const bytes = await source.get({ offset: 0 }, options);
  if (bytes === undefined) return undefined;
  const chunk = await pipeline.decode(bytes);
  const held = ArrayBuffer.isView(chunk.data) ? chunk.data.byteLength : bytes.length;
  return {
    heldBytes: held,
    decodeSubchunks: async (coords) =>
      coords.map((c) => {
        checkWhole(c, pipeline);
        return chunk;
      }),
  };
}

/**
 * Applies `writes` to the whole chunk: decoded from `current` unless a write covers it, written
 * in turn, encoded; undefined when it is left all fill value.
 */
export async function wholeChunkEncode(
  pipeline: CodecPipeline,
  current: Uint8Array | undefined,
  writes: readonly SubchunkWrite[],
  options: PartialIoOptions = {},
): Promise<Uint8Array | undefined> {
  for (const w of writes) checkWhole(w.coords, pipeline);
  const { spec } = pipeline;
  const keep = current !== undefined && !writes.some((w) => w.covers);
  const stored = keep ? await pipeline.decode(current) : undefined;
  const build = () => {
    const chunk = writableChunk(spec, spec.shape, stored);
    for (const w of writes) w.write(chunk);
    return chunk;
  };
  const chunk = build();
  if (spec.dataType.isAllFill(chunk.data, spec.fillValue)) return undefined;
  return options.encodeChunk ? options.encodeChunk(chunk, build) : pipeline.encode(chunk);
}

// The checks of a decode's hints (the elements a caller reads, a buffer to decode into), loaded
// with the first decode that has some: worker decodes and reads of part of a blosc chunk. Apart
// from pipeline.ts so that a page that does neither does not download them.
import { type IndexRange, product } from "@z/ndarray";
import { CodecError } from "./errors.js";
import type { CodecPipeline } from "./pipeline.js";
import type { BytesDecodeOptions, ChunkDecodeOptions } from "./types.js";

/**
 * A decode's hints as options of the codec that decodes the chunk's bytes: element ranges as
 * byte ranges of the decoded chunk, and `into` once its size is checked.
 * @throws CodecError for elements outside the chunk or an `into` of the wrong size
 */
export function checkedHints(
  pipeline: CodecPipeline,
  options: ChunkDecodeOptions,
): Pick<BytesDecodeOptions, "ranges" | "into"> {
  const { spec } = pipeline;
  const hints: Pick<BytesDecodeOptions, "ranges" | "into"> = {};
  const { into, elements } = options;
  if (into !== undefined) {
    const size = pipeline.decodedSizes[0];
    if (into.length !== size) {
      throw new CodecError(
        `The destination has ${into.length} bytes; a [${spec.shape}] chunk of ${spec.dataType.name} decodes to ${size}`,
      );
    }
    hints.into = into;
  }
  if (elements !== undefined) hints.ranges = byteRanges(pipeline, elements);
  return hints;
}

/** Element ranges as byte ranges of the decoded chunk. @throws CodecError outside the chunk */
function byteRanges(pipeline: CodecPipeline, elements: readonly IndexRange[]): IndexRange[] {
  const { spec } = pipeline;
  const n = product(spec.shape);
  const size = spec.dataType.itemSize;
  return elements.map(([begin, end]) => {
    if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end > n) {
      throw new CodecError(
        `Element range [${begin}, ${end}) is not inside the ${n} elements of a [${spec.shape}] chunk`,
      );
    }
    return [begin * size, end * size];
  });
}

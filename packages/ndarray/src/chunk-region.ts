import type { Chunk, Container } from "./containers.js";
import { copyStrided } from "./strided.js";

/**
 * A strided region of a chunk and where it lands in a C-order result, as plain numbers: a
 * selection's part in a form that crosses to a worker, which decodes the chunk and copies the
 * region into a shared result itself. Every value counts elements, not bytes or lanes.
 */
export interface ChunkRegion {
  /** Per chunk axis, the first selected index. */
  start: number[];
  /** Per chunk axis, the step between selected indices (positive or negative, never 0). */
  step: number[];
  /** Per chunk axis, how many indices are selected. */
  shape: number[];
  /** The result's element index of the region's first element. */
  outOffset: number;
  /** Per chunk axis, the result's element stride (0 for an axis an integer selects). */
  outStride: number[];
}

/**
 * Copies `region` of a decoded chunk (any strides: a transposed or F-order chunk is read
 * through its own `stride`) into `out`. `lanes` is the number of container slots per element
 * (2 for interleaved complex).
 */
export function copyRegion(chunk: Chunk, region: ChunkRegion, out: Container, lanes = 1): void {
  let offset = 0;
  const stride = region.start.map((start, axis) => {
    offset += start * chunk.stride[axis];
    return region.step[axis] * chunk.stride[axis];
  });
  copyStrided(
    { data: chunk.data, offset, stride },
    { data: out, offset: region.outOffset, stride: region.outStride },
    region.shape,
    lanes,
  );
}

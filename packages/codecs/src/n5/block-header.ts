// N5's block header (N5 spec 4.0.0): mode (uint16), number of dimensions (uint16), then each
// dimension (uint32), all big-endian; the varlength mode adds an element count (uint32).
import { DecodeError } from "../errors.js";

/** The block modes N5 defines. */
const MODES = ["default", "varlength", "object"];

/** A default-mode block's header: its shape, in the array's dimension order. */
export interface N5BlockHeader {
  /** The block's shape (N5 blocks at the array's edge may be smaller than the block size). */
  shape: number[];
  /** The header's length in bytes: where the block's data starts. */
  length: number;
}

/**
 * Reads a default-mode block header, checking it against the array's dimensionality.
 * @throws DecodeError for a short block, another mode or another number of dimensions
 */
export function readN5BlockHeader(bytes: Uint8Array, ndim: number): N5BlockHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 4)
    throw new DecodeError(`n5_default codec: a block of ${bytes.length} bytes has no header`);
  const mode = view.getUint16(0);
  if (mode !== 0)
    throw new DecodeError(
      `n5_default codec: the block is in mode ${mode} (${MODES[mode] ?? "unknown"}); only the default mode (0) holds array elements`,
    );
  const dims = view.getUint16(2);
  if (dims !== ndim)
    throw new DecodeError(
      `n5_default codec: the block header has ${dims} dimensions; the array has ${ndim}`,
    );
  const length = 4 + 4 * dims;
  if (bytes.length < length)
    throw new DecodeError(
      `n5_default codec: a block of ${bytes.length} bytes is shorter than its ${length}-byte header`,
    );
  const shape = Array.from({ length: dims }, (_, i) => view.getUint32(4 + 4 * i));
  return { shape, length };
}

/** A default-mode block header for a block of `shape`. */
export function writeN5BlockHeader(shape: readonly number[]): Uint8Array {
  const out = new Uint8Array(4 + 4 * shape.length);
  const view = new DataView(out.buffer);
  view.setUint16(0, 0);
  view.setUint16(2, shape.length);
  for (const [i, extent] of shape.entries()) view.setUint32(4 + 4 * i, extent);
  return out;
}

/** What an element of a variable-length type (strings, bytes, objects) counts as. */
export const VARIABLE_ITEM_BYTES = 16;

/** The largest integer `s >= 1` with `s ** k <= n`. */
function integerRoot(n: number, k: number): number {
  let s = Math.max(1, Math.floor(n ** (1 / k)));
  // Floating-point roots can be one off either way.
  while (s > 1 && s ** k > n) s--;
  while ((s + 1) ** k <= n) s++;
  return s;
}

/**
 * The chunk shape `zarr rechunk --chunk-bytes` gives an array: chunks of at most `bytes`
 * (and at least one element), as close to a cube as the array's shape allows. Axes shorter
 * than the cube's side are taken whole and the bytes they leave go to the others, which share
 * them equally; so a 1-D array gets runs of `bytes / itemSize` elements, a 2-D one squares,
 * an array smaller than `bytes` one chunk. Elements of variable-length types count
 * {@link VARIABLE_ITEM_BYTES} bytes.
 * @param itemSize bytes per element (0 for variable-length types)
 */
export function chunksForBytes(
  shape: readonly number[],
  itemSize: number,
  bytes: number,
): number[] {
  let elements = Math.max(1, Math.floor(bytes / (itemSize > 0 ? itemSize : VARIABLE_ITEM_BYTES)));
  const chunks = shape.map(() => 1);
  // Shortest axes first: each takes its whole length if that is within the cube's side.
  const order = shape.map((_, axis) => axis).sort((a, b) => shape[a] - shape[b] || a - b);
  order.forEach((axis, i) => {
    const side = integerRoot(elements, order.length - i);
    const length = Math.max(1, shape[axis]);
    chunks[axis] = Math.min(length, side);
    elements = Math.max(1, Math.floor(elements / chunks[axis]));
  });
  return chunks;
}

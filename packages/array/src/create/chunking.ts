/** The chunk size (in bytes) that automatic chunking aims for. */
const TARGET_CHUNK_BYTES = 1 << 20;

/**
 * A chunk shape for an array when the user gives none: the whole array if it is small,
 * otherwise repeatedly halving the largest dimension until a chunk holds about 1 MiB.
 */
export function guessChunks(shape: readonly number[], itemSize: number): number[] {
  const chunks = shape.map((n) => Math.max(1, n));
  const bytes = () => chunks.reduce((a, b) => a * b, Math.max(1, itemSize));
  while (bytes() > TARGET_CHUNK_BYTES) {
    let largest = 0;
    for (let i = 1; i < chunks.length; i++) if (chunks[i] > chunks[largest]) largest = i;
    if (chunks[largest] === 1) break;
    chunks[largest] = Math.ceil(chunks[largest] / 2);
  }
  return chunks;
}

import type { Chunk, Container, ZarrArray } from "@z/zarr";

// zarrita's `getChunk` reads one chunk of the grid it reports (`arr.chunks`), which for a
// sharded array is the inner chunk grid, and always answers with the whole chunk shape (a
// chunk past the array's edge padded with the fill value). The @z stack reads chunks of its
// stored grid (shards, for a sharded array) and selections; this module answers zarrita's
// question with those.

function isSharded(node: ZarrArray): boolean {
  return node.metadata.codecs.some((codec) => codec.name === "sharding_indexed");
}

function cStrides(shape: readonly number[]): number[] {
  const stride = new Array<number>(shape.length);
  for (let i = shape.length - 1, step = 1; i >= 0; i--) {
    stride[i] = step;
    step *= shape[i] as number;
  }
  return stride;
}

/** A chunk of `shape` holding the array's fill value. */
export function filledChunk(node: ZarrArray, shape: number[]): Chunk {
  const size = shape.reduce((a, b) => a * b, 1);
  const data = node.dataType.create(size);
  node.dataType.fill(data, node.fillValue);
  return { data, shape, stride: cStrides(shape) };
}

/** `region` (C order, no larger than `into` on any axis) copied into the corner of `into`. */
function embed(region: Chunk, into: Chunk): Chunk {
  const size = region.shape.reduce((a, b) => a * b, 1);
  if (size === 0) return into;
  // Fixed-width strings and complex numbers take several slots per element.
  const width = region.data.length / size;
  const src = region.data as unknown as { [i: number]: unknown };
  const dst = into.data as unknown as { [i: number]: unknown };
  const index = new Array<number>(region.shape.length).fill(0);
  for (let n = 0; n < size; n++) {
    let to = 0;
    for (let d = 0; d < index.length; d++) to += (index[d] as number) * (into.stride[d] as number);
    for (let k = 0; k < width; k++) dst[to * width + k] = src[n * width + k];
    for (let d = index.length - 1; d >= 0; d--) {
      index[d] = (index[d] as number) + 1;
      if ((index[d] as number) < (region.shape[d] as number)) break;
      index[d] = 0;
    }
  }
  return into;
}

/**
 * The chunk of zarrita's grid at `coords`, decoded, of the whole chunk shape; undefined when
 * it (or, unsharded, its stored chunk) was never written.
 */
export async function readGridChunk(
  node: ZarrArray,
  coords: readonly number[],
  signal: AbortSignal | undefined,
): Promise<Chunk<Container> | undefined> {
  if (!isSharded(node)) return node.getChunk(coords, { signal });
  const chunkShape = node.chunks;
  const selection = coords.map((c, d) => {
    const start = c * (chunkShape[d] as number);
    const stop = Math.min(start + (chunkShape[d] as number), node.shape[d] as number);
    return { kind: "slice" as const, start, stop, step: 1 };
  });
  const region = await node.get(selection, { signal, sharedMemory: false });
  const whole = region.shape.every((n, d) => n === chunkShape[d]);
  return whole ? region : embed(region, filledChunk(node, chunkShape));
}

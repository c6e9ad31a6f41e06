import { createArray, createGroup } from "@z/array";
import type { JsonObject } from "@z/metadata";

/** The value of a pixel of the test images: different everywhere, exact in float32. */
export function pixelValue(index: number[]): number {
  return index.reduce((acc, i) => acc * 97 + i, 0) % 65_521;
}

/**
 * Writes a 0.4 image by hand (not with the writer under test): `levels` levels of `shape`,
 * each halving y and x, every pixel {@link pixelValue} of its index at that level.
 */
export async function buildImage(
  store: Map<string, Uint8Array>,
  options: {
    shape: number[];
    chunks: number[];
    levels: number;
    axes: JsonObject[];
    zarrFormat?: 2 | 3;
  },
): Promise<void> {
  const { shape, chunks, levels, axes } = options;
  const n = shape.length;
  const datasets = Array.from({ length: levels }, (_, l) => ({
    path: String(l),
    coordinateTransformations: [
      { type: "scale", scale: shape.map((_, d) => (d >= n - 2 ? 0.5 * 2 ** l : 1)) },
    ],
  }));
  const multiscales = [{ version: "0.4", name: "test", axes, datasets }];
  const attributes: JsonObject =
    (options.zarrFormat ?? 2) === 3
      ? { ome: { version: "0.5", multiscales: [{ name: "test", axes, datasets }] } }
      : { multiscales };
  await createGroup(store, { path: "img", attributes, zarrFormat: options.zarrFormat ?? 2 });
  for (let l = 0; l < levels; l++) {
    const levelShape = shape.map((s, d) => (d >= n - 2 ? Math.ceil(s / 2 ** l) : s));
    const arr = await createArray(store, {
      path: `img/${l}`,
      shape: levelShape,
      chunks,
      dtype: "float32",
      zarrFormat: options.zarrFormat ?? 2,
    });
    const size = levelShape.reduce((a, b) => a * b, 1);
    const data = new Float32Array(size);
    const index = new Array<number>(n).fill(0);
    for (let i = 0; i < size; i++) {
      data[i] = pixelValue(index) + l * 0.5;
      for (let d = n - 1; d >= 0; d--) {
        if (++index[d] < levelShape[d]) break;
        index[d] = 0;
      }
    }
    await arr.set(null, { data, shape: levelShape });
  }
}

const AXES: Record<string, JsonObject> = {
  t: { name: "t", type: "time" },
  c: { name: "c", type: "channel" },
  z: { name: "z", type: "space" },
  y: { name: "y", type: "space", unit: "micrometer" },
  x: { name: "x", type: "space", unit: "micrometer" },
};

/** Axes by their one-letter names (`"czyx"`). */
export function axesOf(names: string): JsonObject[] {
  return [...names].map((n) => AXES[n]);
}

/** A store that counts the chunk keys read (not the metadata documents). */
export function countingStore(base: Map<string, Uint8Array>): {
  store: Map<string, Uint8Array>;
  reads: string[];
} {
  const reads: string[] = [];
  const store = new Map(base);
  const get = store.get.bind(store);
  store.get = (key: string) => {
    if (!/(\.z\w+|zarr\.json)$/.test(key)) reads.push(key);
    return get(key);
  };
  return { store, reads };
}

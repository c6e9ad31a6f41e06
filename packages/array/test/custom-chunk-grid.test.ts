import { createArray, openArray } from "@z/array";
import { slice } from "@z/indexing";
import { type ChunkAxis, type ChunkGrid, chunkShapeAt, registerChunkGrid } from "@z/metadata";
import { describe, expect, it } from "vitest";

/** Chunks doubling in length along every axis: 1, 2, 4, 8, ... (the registerChunkGrid example). */
class DoublingAxis implements ChunkAxis {
  readonly extent = Number.POSITIVE_INFINITY;
  readonly maxSize = 2 ** 30;
  readonly step = undefined;
  chunkOf(index: number) {
    return Math.floor(Math.log2(index + 1));
  }
  start(chunk: number) {
    return 2 ** chunk - 1;
  }
  size(chunk: number) {
    return 2 ** chunk;
  }
  count(length: number) {
    return length <= 0 ? 0 : this.chunkOf(length - 1) + 1;
  }
  edgeLengths() {
    return Array.from({ length: 31 }, (_, k) => 2 ** k);
  }
}

registerChunkGrid("test-doubling", (_config, ndim): ChunkGrid => {
  const axes = Array.from({ length: ndim }, () => new DoublingAxis());
  return {
    name: "test-doubling",
    chunkShape: undefined,
    axes,
    maxChunkShape: [16, 16].slice(0, ndim),
    gridShape: (shape) => shape.map((n, i) => axes[i].count(n)),
    chunkShapeAt: (coords) => chunkShapeAt(axes, coords),
    checkArrayShape: () => {},
    toJson: () => ({ name: "test-doubling" }),
  };
});

describe("a chunk grid registered with registerChunkGrid", () => {
  it("writes each chunk at its own shape and reads every selection back", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [10, 3],
      dtype: "uint8",
      chunkGrid: { name: "test-doubling" },
      compressors: null,
    });
    const all = Uint8Array.from({ length: 30 }, (_, k) => k + 1);
    await arr.set(null, { data: all, shape: [10, 3] });
    // Rows 0 | 1-2 | 3-6 | 7-14, columns 0 | 1-2: chunks stored at 1x1 ... 8x2 elements.
    const sizes = Object.fromEntries(
      [...store].filter(([k]) => k !== "zarr.json").map(([k, v]) => [k, v.length]),
    );
    expect(sizes).toEqual({
      "c/0/0": 1,
      "c/0/1": 2,
      "c/1/0": 2,
      "c/1/1": 4,
      "c/2/0": 4,
      "c/2/1": 8,
      "c/3/0": 8,
      "c/3/1": 16,
    });
    // Chunk (3, 1): rows 7..14 (7..9 inside), columns 1..2, the rest the fill value.
    expect(Array.from(store.get("c/3/1") as Uint8Array)).toEqual([
      23, 24, 26, 27, 29, 30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ]);
    const again = await openArray(store);
    expect(Array.from((await again.get()).data as Uint8Array)).toEqual(Array.from(all));
    expect(Array.from((await again.get([slice(9, 0, -4), 2])).data as Uint8Array)).toEqual([
      30, 18, 6,
    ]);
    expect((await again.getBlocks([2, 1])).shape).toEqual([4, 2]);
  });
});

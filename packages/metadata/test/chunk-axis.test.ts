import {
  ChunkGridError,
  ExplicitChunkAxis,
  MetadataError,
  parseNamedConfig,
  RegularChunkAxis,
  resolveChunkGrid,
} from "@z/metadata";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** The naive model: the edge lengths written out, and each element's chunk by linear scan. */
function model(runs: [number, number][]) {
  const edges = runs.flatMap(([size, count]) => Array<number>(count).fill(size));
  const starts = edges.map((_, k) => edges.slice(0, k).reduce((a, b) => a + b, 0));
  const extent = edges.reduce((a, b) => a + b, 0);
  const chunkOf = (i: number) => starts.findLastIndex((s) => s <= i);
  return { edges, starts, extent, chunkOf };
}

const runsArb = fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 })), {
  minLength: 1,
  maxLength: 6,
});

describe("chunk axes", () => {
  it("an explicit axis agrees with its edge lengths written out", () => {
    fc.assert(
      fc.property(runsArb, (runs) => {
        const axis = new ExplicitChunkAxis(runs);
        const m = model(runs);
        expect(axis.extent).toBe(m.extent);
        expect(axis.chunks).toBe(m.edges.length);
        expect(axis.maxSize).toBe(Math.max(...m.edges));
        expect([...axis.edgeLengths()].sort()).toEqual([...new Set(m.edges)].sort());
        m.edges.forEach((size, k) => {
          expect(axis.size(k)).toBe(size);
          expect(axis.start(k)).toBe(m.starts[k]);
        });
        for (let i = 0; i < m.extent; i++) expect(axis.chunkOf(i)).toBe(m.chunkOf(i));
        for (let length = 0; length <= m.extent; length++)
          expect(axis.count(length)).toBe(length === 0 ? 0 : m.chunkOf(length - 1) + 1);
      }),
    );
  });

  it("a regular axis cuts every step elements without end", () => {
    const axis = new RegularChunkAxis(3);
    expect([0, 2, 3, 8, 9].map((i) => axis.chunkOf(i))).toEqual([0, 0, 1, 2, 3]);
    expect([axis.start(4), axis.size(4), axis.count(10), axis.extent]).toEqual([
      12,
      3,
      4,
      Infinity,
    ]);
  });
});

describe("rectilinear chunk_grid metadata", () => {
  const grid = (chunkShapes: unknown, ndim = 2, kind: unknown = "inline") =>
    resolveChunkGrid(
      parseNamedConfig(
        { name: "rectilinear", configuration: { kind, chunk_shapes: chunkShapes } } as never,
        "chunk_grid",
      ),
      ndim,
      "/a/zarr.json",
    );

  it("keeps chunk_shapes as written and checks the array shape", () => {
    const g = grid([[10, [20, 2], 5], 8]);
    expect(g.toJson()).toEqual({
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: [[10, [20, 2], 5], 8] },
    });
    expect(g.chunkShape).toBeUndefined();
    expect(g.maxChunkShape).toEqual([20, 8]);
    expect(g.gridShape([55, 17])).toEqual([4, 3]);
    expect(g.chunkShapeAt([2, 5])).toEqual([20, 8]);
    expect(() => g.checkArrayShape([55, 1000], "x")).not.toThrow();
    expect(() => g.checkArrayShape([56, 1], "x")).toThrow(ChunkGridError);
    // Runs of one length: every chunk has the same shape.
    expect(grid([[[4, 3]], 2]).chunkShape).toEqual([4, 2]);
  });

  it("refuses malformed configurations with the place named", () => {
    for (const bad of [
      [[0], 8],
      [[1.5], 8],
      [[[2, 0]], 8],
      [[[2]], 8],
      ["x", 8],
      [0, 8],
      [[-1], 8],
    ]) {
      expect(() => grid(bad)).toThrow(MetadataError);
      expect(() => grid(bad)).toThrow(/\/a\/zarr\.json chunk_grid: chunk_shapes\[0\]/);
    }
    expect(() => grid([[1], 2], 3)).toThrow(/one entry per dimension \(3\)/);
    expect(() => grid([[1], 2], 2, "file")).toThrow(/only "inline"/);
    expect(() => grid([[[2 ** 52, 4]], 2])).toThrow(/add up to more than 2\^53/);
    expect(() => grid([[2 ** 30], [2 ** 30]])).toThrow(/more than 2\^53 elements/);
  });
});

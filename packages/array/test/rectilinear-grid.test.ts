import { createArray, openArray } from "@z/array";
import { slice } from "@z/indexing";
import { ChunkGridError, MetadataError } from "@z/metadata";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

const SHAPE = [5, 6];
/** Axis 0: a run [1, 2] inside the list, and a last chunk overflowing the array by 3. */
const CHUNK_SHAPES: (number | number[])[][] = [[2, [1, 2], 4], [[4, 2]]];
/** The same edge lengths written out, as the spec's cumulative sums define the chunks. */
const EDGES = [
  [2, 1, 1, 4],
  [4, 4],
];
const value = (i: number, j: number) => i * SHAPE[1] + j + 1;

/** The zarr.json the spec asks for, written by hand. */
function expectedMetadata() {
  return {
    zarr_format: 3,
    node_type: "array",
    shape: SHAPE,
    data_type: "uint16",
    chunk_grid: {
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: CHUNK_SHAPES },
    },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    attributes: {},
  };
}

/**
 * The chunk objects, byte by byte: each chunk is stored at its own shape (edge lengths of its
 * row and column), in C order, little-endian uint16, fill value 0 outside the array.
 */
function expectedChunks(): Map<string, Uint8Array> {
  const chunks = new Map<string, Uint8Array>();
  let s0 = 0;
  for (const [c0, e0] of EDGES[0].entries()) {
    let s1 = 0;
    for (const [c1, e1] of EDGES[1].entries()) {
      const bytes = new Uint8Array(e0 * e1 * 2);
      for (let a = 0; a < e0; a++) {
        for (let b = 0; b < e1; b++) {
          const i = s0 + a;
          const j = s1 + b;
          const v = i < SHAPE[0] && j < SHAPE[1] ? value(i, j) : 0;
          const k = (a * e1 + b) * 2;
          bytes[k] = v & 0xff;
          bytes[k + 1] = v >> 8;
        }
      }
      if (s0 < SHAPE[0] && s1 < SHAPE[1]) chunks.set(`c/${c0}/${c1}`, bytes);
      s1 += e1;
    }
    s0 += e0;
  }
  return chunks;
}

function allValues(): Uint16Array {
  return Uint16Array.from({ length: SHAPE[0] * SHAPE[1] }, (_, k) =>
    value(Math.floor(k / SHAPE[1]), k % SHAPE[1]),
  );
}

/** Metadata of a sharded array over the rectilinear grid of {@link expectedMetadata}. */
function shardedMetadata(inner: number[]) {
  const bytes = { name: "bytes", configuration: { endian: "little" } };
  return {
    ...expectedMetadata(),
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: inner,
          codecs: [bytes],
          index_codecs: [bytes],
          index_location: "end",
        },
      },
    ],
  };
}

/**
 * A uint8 shard of `shardShape` starting at row `row0` (one column of shards), by the sharding
 * spec: the inner chunks in C order, each stored at the inner shape (fill value 0 outside the
 * array), then the index: per inner chunk, offset and length as little-endian uint64.
 */
function shardBytes(
  row0: number,
  shardShape: number[],
  inner: number[],
  shape: number[],
  v: (i: number, j: number) => number,
): Uint8Array {
  const per = [shardShape[0] / inner[0], shardShape[1] / inner[1]];
  const chunkBytes: number[][] = [];
  for (let a = 0; a < per[0]; a++) {
    for (let b = 0; b < per[1]; b++) {
      const out: number[] = [];
      for (let x = 0; x < inner[0]; x++) {
        for (let y = 0; y < inner[1]; y++) {
          const [i, j] = [row0 + a * inner[0] + x, b * inner[1] + y];
          out.push(i < shape[0] && j < shape[1] ? v(i, j) : 0);
        }
      }
      chunkBytes.push(out);
    }
  }
  const data = chunkBytes.flat();
  const index = new Uint8Array(chunkBytes.length * 16);
  const view = new DataView(index.buffer);
  let offset = 0;
  chunkBytes.forEach((c, k) => {
    view.setBigUint64(k * 16, BigInt(offset), true);
    view.setBigUint64(k * 16 + 8, BigInt(c.length), true);
    offset += c.length;
  });
  return Uint8Array.from([...data, ...index]);
}

describe("rectilinear chunk grid", () => {
  it("writes the zarr.json and chunk bytes the spec defines", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: SHAPE,
      dtype: "uint16",
      chunks: CHUNK_SHAPES,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    });
    await arr.set(null, { data: allValues(), shape: SHAPE });
    const doc = JSON.parse(new TextDecoder().decode(store.get("zarr.json")));
    expect(doc).toEqual(expectedMetadata());
    const expected = expectedChunks();
    const written = [...store.keys()].filter((k) => k !== "zarr.json").sort();
    expect(written).toEqual([...expected.keys()].sort());
    for (const [key, bytes] of expected) expect(store.get(key), key).toEqual(bytes);
  });

  it("reads hand-made chunk files, with every selection mode", async () => {
    const store = new Map<string, Uint8Array>(expectedChunks());
    store.set("zarr.json", new TextEncoder().encode(JSON.stringify(expectedMetadata())));
    const arr = await openArray(store);
    expect(arr.metadata.chunkGrid.gridShape(SHAPE)).toEqual([4, 2]);
    expect(arr.metadata.chunkGrid.chunkShapeAt([3, 1])).toEqual([4, 4]);
    expect(Array.from((await arr.get()).data as Uint16Array)).toEqual(Array.from(allValues()));
    // Element (3, 5) is in chunk (2, 1) at (0, 1): the spec's cumulative-sum rule.
    expect((await arr.get([3, 5])).data[0]).toBe(value(3, 5));
    expect(Array.from((await arr.get([slice(4, 0, -1), 4])).data as Uint16Array)).toEqual(
      [4, 3, 2, 1].map((i) => value(i, 4)),
    );
    expect(
      Array.from(
        (
          await arr.getOrthogonal([
            [4, 0, 2],
            [5, 3],
          ])
        ).data as Uint16Array,
      ),
    ).toEqual([value(4, 5), value(4, 3), value(0, 5), value(0, 3), value(2, 5), value(2, 3)]);
    expect(
      Array.from(
        (
          await arr.getCoordinates([
            [1, 2, 3],
            [0, 4, 5],
          ])
        ).data as Uint16Array,
      ),
    ).toEqual([value(1, 0), value(2, 4), value(3, 5)]);
    const mask = Array.from({ length: 30 }, (_, k) => k % 7 === 0);
    expect(
      Array.from((await arr.getMask({ data: mask, shape: SHAPE })).data as Uint16Array),
    ).toEqual([0, 7, 14, 21, 28].map((k) => value(Math.floor(k / 6), k % 6)));
    // Block (1..3, 1): rows 2..4 (chunks of 1, 1 and the overflowing 4, clipped), columns 4..5.
    const block = await arr.getBlocks([slice(1, 3), 1]);
    expect(block.shape).toEqual([2, 2]);
    expect(Array.from(block.data as Uint16Array)).toEqual([
      value(2, 4),
      value(2, 5),
      value(3, 4),
      value(3, 5),
    ]);
    expect((await arr.getBlocks([3, 0])).shape).toEqual([1, 4]);
  });

  it("opens the spec's example with integers, lists, runs and overflow", async () => {
    const store = new Map<string, Uint8Array>();
    const doc = {
      ...expectedMetadata(),
      shape: [6, 6, 6, 6, 6],
      chunk_grid: {
        name: "rectilinear",
        configuration: {
          kind: "inline",
          chunk_shapes: [4, [1, 2, 3], [[4, 2]], [[1, 3], 3], [4, 4, 4]],
        },
      },
    };
    store.set("zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    const arr = await openArray(store);
    const grid = arr.metadata.chunkGrid;
    expect(grid.gridShape(arr.shape)).toEqual([2, 3, 2, 4, 2]);
    expect(grid.chunkShapeAt([1, 2, 1, 3, 2])).toEqual([4, 3, 4, 3, 4]);
    expect(grid.toJson()).toEqual(doc.chunk_grid);
  });

  it("refuses edge lengths that do not cover the shape, and malformed ones", async () => {
    const open = async (chunkShapes: unknown, shape = SHAPE, kind = "inline") => {
      const store = new Map<string, Uint8Array>();
      const doc = {
        ...expectedMetadata(),
        shape,
        chunk_grid: { name: "rectilinear", configuration: { kind, chunk_shapes: chunkShapes } },
      };
      store.set("zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
      return openArray(store);
    };
    await expect(open([[2, 2], 6])).rejects.toThrow(ChunkGridError);
    await expect(open([[2, 2], 6])).rejects.toThrow(
      /axis 0 add up to 4, less than the array's length 5/,
    );
    await expect(open([[2, [0, 3]], 6])).rejects.toThrow(/chunk_shapes\[0\]\[1\]/);
    await expect(open([[2, [1, 2, 3]], 6])).rejects.toThrow(MetadataError);
    await expect(open([[], 6])).rejects.toThrow(MetadataError);
    await expect(open([5])).rejects.toThrow(/one entry per dimension \(2\)/);
    await expect(open([5, 6], SHAPE, "file")).rejects.toThrow(/only "inline"/);
    // A run of 2^52 chunks stays one run: no allocation proportional to it.
    const huge = await open([[[1, 2 ** 52]], 6]);
    expect(huge.metadata.chunkGrid.gridShape(SHAPE)).toEqual([5, 1]);
  });

  it("refuses v2, inner chunks of different shapes, and shards inner chunks do not divide", async () => {
    const base = { shape: SHAPE, dtype: "uint16" as const, chunks: [[2, 3], 6] };
    await expect(createArray(new Map(), { ...base, zarrFormat: 2 })).rejects.toThrow(
      ChunkGridError,
    );
    await expect(createArray(new Map(), { ...base, shards: [5, 6] })).rejects.toThrow(
      /chunks option with shards needs chunks of one shape/,
    );
    await expect(
      createArray(new Map(), {
        shape: SHAPE,
        dtype: "uint16",
        chunks: [2, 2],
        shards: [[2, 3], 6],
      }),
    ).rejects.toThrow(/axis 0 has a shard of length 3/);
    const store = new Map<string, Uint8Array>();
    // Axis 0 has shards of length 1: inner chunks of 2 rows do not divide them.
    store.set("zarr.json", new TextEncoder().encode(JSON.stringify(shardedMetadata([2, 4]))));
    await expect(openArray(store)).rejects.toThrow(ChunkGridError);
    await expect(openArray(store)).rejects.toThrow(/axis 0 has a shard of length 1/);
  });

  it("shards of different shapes: writes the shard bytes the specs define, and reads them", async () => {
    const shape = [5, 4];
    const v = (i: number, j: number) => i * 4 + j + 1;
    const store = new Map<string, Uint8Array>();
    const doc = {
      ...shardedMetadata([2, 2]),
      shape,
      data_type: "uint8",
      chunk_grid: {
        name: "rectilinear",
        configuration: { kind: "inline", chunk_shapes: [[2, 4], 4] },
      },
    };
    const arr = await createArray(store, {
      shape,
      dtype: "uint8",
      chunkGrid: doc.chunk_grid,
      codecs: doc.codecs as never,
    });
    const all = Uint8Array.from({ length: 20 }, (_, k) => v(Math.floor(k / 4), k % 4));
    await arr.set(null, { data: all, shape });
    expect(JSON.parse(new TextDecoder().decode(store.get("zarr.json")))).toEqual(doc);
    // Shard (0, 0) is 2x4 (two inner chunks), shard (1, 0) is 4x4 (four, its last row of
    // chunks half outside the array, holding the fill value 0 there).
    const expected = new Map([
      ["c/0/0", shardBytes(0, [2, 4], [2, 2], shape, v)],
      ["c/1/0", shardBytes(2, [4, 4], [2, 2], shape, v)],
    ]);
    expect([...store.keys()].filter((k) => k !== "zarr.json").sort()).toEqual([...expected.keys()]);
    for (const [key, bytes] of expected) expect(store.get(key), key).toEqual(bytes);
    // Read back from the hand-made bytes alone.
    const theirs = new Map<string, Uint8Array>(expected);
    theirs.set("zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    const read = await openArray(theirs);
    expect(read.access.subchunkShape).toEqual([2, 2]);
    expect(Array.from((await read.get()).data as Uint8Array)).toEqual(Array.from(all));
    expect(Array.from((await read.getBlocks([1, 0])).data as Uint8Array)).toEqual(
      Array.from(all.subarray(8)),
    );
    expect(
      Array.from(
        (
          await read.getCoordinates([
            [4, 1],
            [3, 2],
          ])
        ).data as Uint8Array,
      ),
    ).toEqual([v(4, 3), v(1, 2)]);
  });

  it("creates from an explicit chunkGrid option", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [30, 8],
      dtype: "int32",
      chunkGrid: {
        name: "rectilinear",
        configuration: { kind: "inline", chunk_shapes: [[10, 20, 5], 8] },
      },
    });
    expect(arr.metadata.chunkGrid.gridShape(arr.shape)).toEqual([2, 1]);
    expect(arr.chunks).toEqual([20, 8]);
    await arr.set([slice(8, 12), null], 7);
    expect([...store.keys()].sort()).toEqual(["c/0/0", "c/1/0", "zarr.json"]);
  });

  it("resizes within the edge lengths, never beyond", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [5, 6],
      dtype: "uint16",
      chunks: CHUNK_SHAPES,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    });
    await arr.set(null, { data: allValues(), shape: SHAPE });
    await expect(arr.resize([9, 6])).rejects.toThrow(ChunkGridError);
    expect(arr.shape).toEqual([5, 6]);
    // Shrinking into the middle of chunk 2 of axis 0 (rows 3..3) and of column chunk 1.
    await arr.resize([3, 5]);
    expect(store.has("c/3/0")).toBe(false);
    await arr.resize([8, 8]);
    const got = Array.from((await arr.get()).data as Uint16Array);
    const want = Array.from({ length: 64 }, (_, k) => {
      const [i, j] = [Math.floor(k / 8), k % 8];
      return i < 3 && j < 5 ? value(i, j) : 0;
    });
    expect(got).toEqual(want);
    // append grows within the declared edge lengths (8 rows), then refuses.
    await expect(arr.append({ data: new Uint16Array(8), shape: [1, 8] }, 0)).rejects.toThrow(
      ChunkGridError,
    );
  });

  it("zarrita (JavaScript) does not know the grid: it opens the array but cannot read it", async () => {
    const store = new Map<string, Uint8Array>(expectedChunks());
    store.set("zarr.json", new TextEncoder().encode(JSON.stringify(expectedMetadata())));
    const location = zarrita.root({ get: async (key: string) => store.get(key.slice(1)) });
    // zarrita takes chunk_grid.configuration.chunk_shape without checking the grid's name:
    // the array opens with no chunk shape, and a read fails with a TypeError.
    const theirs = await zarrita.open.v3(location, { kind: "array" });
    expect(theirs.chunks).toBeUndefined();
    await expect(zarrita.get(theirs)).rejects.toThrow(TypeError);
  });
});

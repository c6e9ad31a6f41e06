import { ArrowValueError, arrowDataType, readArrowVector, writeArrowVector } from "@z/dtypes-arrow";
import { createArray, FillValueError, MapStore, openArray, slice } from "@z/zarr";
import * as A from "apache-arrow";
import { describe, expect, it } from "vitest";
import { CASES, type Case, elements, field } from "./cases.js";

/** The elements of a C-order n-d array (shape) at the cartesian product of per-axis indices. */
function pick(values: unknown[], shape: number[], axes: number[][]): unknown[] {
  const out: unknown[] = [];
  const visit = (axis: number, offset: number) => {
    if (axis === shape.length) {
      out.push(values[offset]);
      return;
    }
    const stride = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    for (const i of axes[axis]) visit(axis + 1, offset + i * stride);
  };
  visit(0, 0);
  return out;
}

function range(start: number, stop: number, step = 1): number[] {
  const out: number[] = [];
  for (let i = start; step > 0 ? i < stop : i > stop; i += step) out.push(i);
  return out;
}

async function keys(store: MapStore): Promise<string[]> {
  const out: string[] = [];
  for await (const key of store.list()) out.push(key);
  return out.sort();
}

describe("arrow arrays through createArray: every family, n-d, several chunks, ragged edges, sharded", () => {
  for (const c of CASES) {
    it(c.label, async () => {
      const dtype = arrowDataType(c.field);
      const shape = [7, 5];
      const values = elements(c, 35, 1);
      for (const layout of [{ chunks: [3, 2] }, { chunks: [2, 2], shards: [4, 4] }]) {
        const store = new MapStore();
        const arr = await createArray(store, {
          shape,
          dtype,
          serializer: "z.arrow-ipc",
          ...layout,
        });
        await arr.set(null, { data: values, shape });
        const reopened = await openArray(store);
        expect(reopened.metadata.dataType.toV3()).toEqual(dtype.toV3());
        const all = await reopened.get();
        expect(all.shape).toEqual(shape);
        expect(all.data).toEqual(values);
        const part = await reopened.get([slice(1, 7, 2), slice(4, 0, -3)]);
        expect(part.shape).toEqual([3, 2]);
        expect(part.data).toEqual(pick(values, shape, [range(1, 7, 2), range(4, 0, -3)]));
        expect((await reopened.get([6, 4])).data).toEqual([values[34]]);
      }
    });
  }
});

describe("1-d and 3-d arrays, partial writes, missing chunks", () => {
  const nullable = (label: string) => CASES.find((c) => c.label === label) as Case;

  it("1-d: chunks never written read as nulls, and all-null chunks are not stored", async () => {
    const c = nullable("map<utf8, int64>");
    const store = new MapStore();
    const arr = await createArray(store, {
      shape: [10],
      chunks: [4],
      dtype: arrowDataType(c.field),
      serializer: "z.arrow-ipc",
    });
    expect(arr.fillValue).toBeNull();
    const doc = JSON.parse(new TextDecoder().decode(await store.get("zarr.json")));
    expect(doc.fill_value).toBeNull();
    expect(doc.codecs[0].name).toBe("z.arrow-ipc");
    expect(doc.codecs[0].configuration ?? {}).toEqual({});
    const part = elements(c, 3, 4);
    await arr.set([slice(4, 7)], { data: part, shape: [3] });
    expect(await keys(store)).toEqual(["c/1", "zarr.json"]);
    expect((await arr.get()).data).toEqual([null, null, null, null, ...part, null, null, null]);
    await arr.set([slice(4, 8)], null);
    expect(await keys(store)).toEqual(["zarr.json"]);
  });

  it("3-d with ragged edge chunks and sharding, written in pieces", async () => {
    const c = nullable("dense union");
    const shape = [3, 4, 5];
    const values = elements(c, 60);
    const store = new MapStore();
    const arr = await createArray(store, {
      shape,
      chunks: [2, 3, 2],
      shards: [2, 3, 4],
      dtype: arrowDataType(c.field),
      serializer: "z.arrow-ipc",
      compressors: null,
    });
    for (let i = 0; i < 3; i++) {
      await arr.set([i], { data: values.slice(i * 20, (i + 1) * 20), shape: [4, 5] });
    }
    expect((await arr.get()).data).toEqual(values);
    const sel = await arr.get([slice(null, null, -1), 2, slice(1, 5, 3)]);
    expect(sel.shape).toEqual([3, 2]);
    expect(sel.data).toEqual(pick(values, shape, [[2, 1, 0], [2], [1, 4]]));
  });

  it("a scalar value is broadcast: a struct object, a list, bytes, a union", async () => {
    const cases: [string, unknown][] = [
      ["struct", { a: 5, b: "s", c: [true] }],
      ["list<int32>", [1, null, 3]],
      ["list<list<int8>>", [[1, 2], null, []]],
      [
        "map<utf8, int64>",
        [
          ["a", 1n],
          ["b", null],
        ],
      ],
      ["fixedsizebinary[3]", new Uint8Array([9, 8, 7])],
      ["sparse union", { typeId: 5, value: "u" }],
    ];
    for (const [label, value] of cases) {
      const arr = await createArray(new MapStore(), {
        shape: [2, 3],
        chunks: [1, 2],
        dtype: arrowDataType(nullable(label).field),
        serializer: "z.arrow-ipc",
      });
      await arr.set([1, slice(0, 2)], value as never);
      expect((await arr.get()).data).toEqual([null, null, null, value, value, null]);
    }
  });

  it("a non-nullable field fills with the zero of its type, or the given fill value", async () => {
    const struct = field("s", { name: "struct" }, false, [
      field("n", { name: "int", bitWidth: 64, isSigned: true }, false),
      field("t", { name: "utf8" }),
    ]);
    const store = new MapStore();
    const arr = await createArray(store, {
      shape: [3],
      chunks: [2],
      dtype: arrowDataType(struct),
      serializer: "z.arrow-ipc",
    });
    expect((await arr.get()).data).toEqual([
      { n: 0n, t: null },
      { n: 0n, t: null },
      { n: 0n, t: null },
    ]);
    const given = await createArray(new MapStore(), {
      shape: [2],
      chunks: [2],
      dtype: arrowDataType(struct),
      serializer: "z.arrow-ipc",
      fillValue: { n: 2n ** 60n, t: "x" },
    });
    expect(given.metadata.fillValueJson).toEqual({ n: "1152921504606846976", t: "x" });
    expect((await given.get()).data).toEqual([
      { n: 2n ** 60n, t: "x" },
      { n: 2n ** 60n, t: "x" },
    ]);
    const decimal = await createArray(new MapStore(), {
      shape: [1],
      dtype: arrowDataType(
        field("d", { name: "decimal", precision: 5, scale: 2, bitWidth: 128 }, false),
      ),
      serializer: "z.arrow-ipc",
      fillValue: "1.5",
    });
    expect(decimal.metadata.fillValueJson).toBe("1.50");
    await expect(
      createArray(new MapStore(), {
        shape: [1],
        dtype: arrowDataType(struct),
        serializer: "z.arrow-ipc",
        fillValue: { n: "x" },
      }),
    ).rejects.toThrow(ArrowValueError);
  });

  it("reading a fill value JSON that does not fit is a FillValueError", async () => {
    const store = new MapStore();
    await createArray(store, {
      shape: [2],
      dtype: arrowDataType(field("v", { name: "int", bitWidth: 8, isSigned: true }, false)),
      serializer: "z.arrow-ipc",
    });
    const doc = JSON.parse(new TextDecoder().decode(await store.get("zarr.json")));
    expect(doc.fill_value).toBe(0);
    for (const bad of [300, null, "x"]) {
      await store.set(
        "zarr.json",
        new TextEncoder().encode(JSON.stringify({ ...doc, fill_value: bad })),
      );
      await expect(openArray(store)).rejects.toThrow(FillValueError);
    }
  });

  it("values that do not fit the field are refused with the place they are wrong", async () => {
    const arr = await createArray(new MapStore(), {
      shape: [2],
      dtype: arrowDataType(nullable("struct").field),
      serializer: "z.arrow-ipc",
    });
    await expect(
      arr.set(null, { data: [{ a: 1, b: "x", c: [true, 3] }, null], shape: [2] }),
    ).rejects.toThrow(
      /element\.c\[1\] is number 3; the Arrow field "item" \(bool\) wants true or false/,
    );
    await expect(
      arr.set(null, { data: [{ a: null, b: "x", c: [] }, null], shape: [2] }),
    ).rejects.toThrow(ArrowValueError);
    await expect(arr.set(null, { data: [{ a: 1, z: 2 }, null], shape: [2] })).rejects.toThrow(
      /only the members a, b, c/,
    );
  });
});

describe("apache-arrow vectors in and out", () => {
  it("writes a 1-d vector and reads a selection back as a vector with its shape", async () => {
    const type = new A.List(new A.Field("item", new A.Int32(), true));
    const dtype = arrowDataType(new A.Field("v", type, true));
    const arr = await createArray(new MapStore(), {
      shape: [6],
      chunks: [4],
      dtype,
      serializer: "z.arrow-ipc",
    });
    await writeArrowVector(
      arr,
      [slice(1, 5)],
      A.vectorFromArray([[1, 2], null, [], [3, null]], type),
    );
    const { vector, shape } = await readArrowVector(arr, [slice(0, 5)]);
    expect(shape).toEqual([5]);
    expect(String(vector.type)).toBe("List<Int32>");
    expect(vector.toArray().map((v: A.Vector | null) => (v === null ? null : [...v]))).toEqual([
      null,
      [1, 2],
      null,
      [],
      [3, null],
    ]);
  });

  it("writes an n-d vector ({vector, shape}) and reads 2-d selections", async () => {
    const dict = new A.Dictionary(new A.Utf8(), new A.Int16());
    const dtype = arrowDataType(new A.Field("cat", dict, true));
    const arr = await createArray(new MapStore(), {
      shape: [3, 4],
      chunks: [2, 3],
      shards: [2, 3],
      dtype,
      serializer: "z.arrow-ipc",
    });
    const words = ["a", "b", null, "c", "a", "a", "b", null, "c", "c", "b", "a"];
    await writeArrowVector(arr, null, { vector: A.vectorFromArray(words, dict), shape: [3, 4] });
    const { vector, shape } = await readArrowVector(arr, [slice(1, 3), slice(null, null, 2)]);
    expect(shape).toEqual([2, 2]);
    expect(A.DataType.isDictionary(vector.type)).toBe(true);
    expect(vector.toArray()).toEqual(["a", "b", "c", "b"]);
    await expect(
      writeArrowVector(arr, null, { vector: A.vectorFromArray(words, dict), shape: [4, 4] }),
    ).rejects.toThrow(/12 elements; the shape \[4,4\] has 16/);
  });

  it("reads plain Zarr arrays as vectors of the matching Arrow type", async () => {
    const arr = await createArray(new MapStore(), {
      shape: [2, 2],
      chunks: [1, 2],
      dtype: "int64",
    });
    await arr.set(null, new BigInt64Array([1n, -2n, 3n, 2n ** 62n]));
    const { vector, shape } = await readArrowVector(arr, [slice(null, null, -1), 0]);
    expect(shape).toEqual([2]);
    expect(String(vector.type)).toBe("Int64");
    expect([...vector]).toEqual([3n, 1n]);
  });
});

describe("createArray without a serializer", () => {
  it("stores Arrow elements with z.arrow-ipc by default", async () => {
    const { createArray } = await import("@z/zarr");
    const arr = await createArray(new Map(), {
      shape: [3],
      chunks: [2],
      dtype: arrowDataType({
        name: "x",
        type: { name: "utf8" },
        nullable: true,
        children: [],
      }) as never,
      fillValue: null,
    });
    expect(arr.metadata.codecs[0].name).toBe("z.arrow-ipc");
    await arr.set(null, ["a", null, "c"]);
    expect((await arr.get()).data).toEqual(["a", null, "c"]);
  });
});

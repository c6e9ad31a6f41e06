import {
  createArray,
  NUMPY_TYPE_CODES,
  NUMPY_TYPE_NAMES,
  openArray,
  type ZarrArray,
} from "@z/array";
import { UnknownDataTypeError } from "@z/metadata";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { runPython, startTestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
// The umbrella registers the variable-length string type that "str" names.
import "@z/zarr";

/*
 * NumPy's names and type codes in the dtype option, checked against NumPy itself: every name in
 * NumPy's own table (np.sctypeDict) and every alias of ours, with every byte order before the
 * type codes, must give the data type and byte order np.dtype() gives, or, for NumPy types
 * with no Zarr counterpart, the typed error that lists the names accepted. NumPy must be there:
 * this test does not skip.
 */

/** The Zarr v3 names that are NumPy's names for the same types. */
const ZARR_NUMERIC = new Set([
  "bool",
  ...["int", "uint"].flatMap((k) => [8, 16, 32, 64].map((n) => `${k}${n}`)),
  "float16",
  "float32",
  "float64",
  "complex64",
  "complex128",
]);

interface NumpyAnswer {
  /** np.dtype(alias).name, or null when NumPy refuses the alias. */
  name: string | null;
  /** np.dtype(alias).byteorder. */
  byteorder?: string;
}

const ORDERS = ["", "<", ">", "=", "|"];
const codes = Object.keys(NUMPY_TYPE_CODES);
const names = Object.keys(NUMPY_TYPE_NAMES);

/** Every alias of ours (codes with every byte order) and every name NumPy's table has. */
function askNumpy(): Record<string, NumpyAnswer> {
  const ours = [...names, ...codes.flatMap((code) => ORDERS.map((order) => order + code))];
  const script = `
import json, sys, numpy as np
asked = json.load(sys.stdin) + [k for k in np.sctypeDict if isinstance(k, str)]
out = {}
for alias in asked:
    try:
        d = np.dtype(alias)
        out[alias] = {"name": d.name, "byteorder": d.byteorder}
    except TypeError:
        out[alias] = {"name": None}
print(json.dumps(out))
`;
  return JSON.parse(runPython(script, JSON.stringify(ours)));
}

let answers: Record<string, NumpyAnswer>;
let sandbox: { dir: string; remove: () => void };
beforeAll(() => {
  answers = askNumpy();
  sandbox = tempDir("z-dtype-aliases-");
});
afterAll(() => sandbox.remove());

async function resolved(dtype: string): Promise<ZarrArray | Error> {
  return createArray(new MemoryStore(), { shape: [2], dtype }).catch((error: Error) => error);
}

/** The byte order of the array's elements as stored: `bytes`'s endian, little when it has none. */
function storedOrder(arr: ZarrArray): "little" | "big" {
  return arr.serializer?.configuration.endian === "big" ? "big" : "little";
}

describe("NumPy's names against np.dtype()", () => {
  it("asks NumPy about every alias and every name of its table", () => {
    expect(Object.keys(answers).length).toBeGreaterThan(names.length + codes.length * 4);
    // NumPy 1.x: the names zarr-python users pass.
    expect(answers.double).toEqual({ name: "float64", byteorder: "=" });
  });

  it("every alias of ours names what np.dtype() names, byte order included", async () => {
    const checked: string[] = [];
    for (const alias of [...names, ...codes.flatMap((c) => ORDERS.map((o) => o + c))]) {
      const numpy = answers[alias];
      if (alias === "str") continue; // zarr-python's alias, below; NumPy reads it as <U0
      // Every alias of ours is one NumPy accepts: none is made up.
      expect(numpy?.name, alias).toBeTypeOf("string");
      const arr = await resolved(alias);
      expect(arr, alias).not.toBeInstanceOf(Error);
      const array = arr as ZarrArray;
      expect(array.dtype, alias).toBe(numpy.name);
      expect(storedOrder(array), alias).toBe(numpy.byteorder === ">" ? "big" : "little");
      checked.push(alias);
    }
    expect(checked.length).toBe(names.length - 1 + codes.length * ORDERS.length);
  });

  it("every name of NumPy's table is accepted with NumPy's answer, or has no Zarr counterpart", async () => {
    const sctypes = Object.keys(answers).filter(
      (k) => !names.includes(k) && !codes.some((c) => ORDERS.some((o) => o + c === k)),
    );
    const unmatched: string[] = [];
    for (const alias of sctypes) {
      const numpy = answers[alias];
      const arr = await resolved(alias);
      if (numpy.name && ZARR_NUMERIC.has(numpy.name)) {
        // A plain numeric type: it must be accepted, as NumPy reads it.
        expect(arr, alias).not.toBeInstanceOf(Error);
        expect((arr as ZarrArray).dtype, alias).toBe(numpy.name);
      } else if (arr instanceof Error) {
        expect(arr, alias).toBeInstanceOf(UnknownDataTypeError);
        unmatched.push(alias);
      } else {
        // NumPy types Zarr has too under NumPy's name (object, bytes, generic datetimes).
        expect((arr as ZarrArray).dtype, alias).toBe(numpy.name);
      }
    }
    // What has no Zarr counterpart: extended precision, zero-length strings and voids, and the
    // type names NumPy's table has for the object and datetime kinds.
    const without = new Set(unmatched.map((alias) => answers[alias].name));
    expect([...without].sort()).toEqual([
      "bytes",
      "complex256",
      "datetime64",
      "float128",
      "object",
      "str",
      "timedelta64",
      "void",
    ]);
    expect(unmatched).toEqual(expect.arrayContaining(["float128", "longdouble", "g", "G", "U"]));
  });

  it('"str" is the variable-length string type, as zarr-python reads it', async () => {
    const arr = await createArray(new MemoryStore(), { shape: [2], dtype: "str" });
    expect(arr.dtype).toBe("string");
  });

  it("NumPy's datetime names take their unit", async () => {
    expect(
      (await createArray(new MemoryStore(), { shape: [1], dtype: "datetime64[ns]" })).dtype,
    ).toBe((await createArray(new MemoryStore(), { shape: [1], dtype: "<M8[ns]" })).dtype);
    const td = await createArray(new MemoryStore(), { shape: [1], dtype: "timedelta64[s]" });
    expect(td.dtype).toBe(
      (await createArray(new MemoryStore(), { shape: [1], dtype: "<m8[s]" })).dtype,
    );
  });

  it("an unknown name is an UnknownDataTypeError that lists the names accepted", async () => {
    const error = await resolved("doble");
    expect(error).toBeInstanceOf(UnknownDataTypeError);
    const message = (error as Error).message;
    expect(message).toContain('"doble"');
    for (const accepted of ["float64", "double", "single", "int", "<f8"])
      expect(message).toContain(accepted);
    // Names differing only in case are not NumPy's either.
    expect(await resolved("Double")).toBeInstanceOf(UnknownDataTypeError);
    // A byte order goes before type codes only, not before names.
    expect(await resolved("<double")).toBeInstanceOf(UnknownDataTypeError);
    expect(answers).not.toHaveProperty("<double");
  });
});

describe("aliases in v2 metadata, on every store", () => {
  for (const [storeName, makeStore] of [
    ["MemoryStore", () => new MemoryStore()],
    ["FsStore", () => new FsStore(`${sandbox.dir}/fs-${Math.random().toString(36).slice(2)}`)],
  ] as const) {
    it(`${storeName}: written as NumPy's type string, read back under the Zarr name`, async () => {
      const store = makeStore();
      const arr = await createArray(store, { shape: [3], dtype: ">d", zarrFormat: 2 });
      expect(arr.metadata.v2?.dtype).toBe(">f8");
      await arr.set(null, 1.5);
      const back = await openArray(store, { dtype: "double" });
      expectTypeOf((await back.get()).data).toEqualTypeOf<Float64Array>();
      expect(Array.from((await back.get()).data)).toEqual([1.5, 1.5, 1.5]);
      const v3 = await createArray(makeStore(), { shape: [3], dtype: "single" });
      expect(v3.dtype).toBe("float32");
    });
  }

  it("HttpStore: openArray checks the dtype by NumPy name", async () => {
    const root = `${sandbox.dir}/served`;
    await createArray(new FsStore(root), { shape: [2], dtype: "<i8", zarrFormat: 2 });
    const server = await startTestHttpServer({ root });
    try {
      const arr = await openArray(new HttpStore(server.url), { dtype: "long" });
      expect(arr.dtype).toBe("int64");
      await expect(openArray(new HttpStore(server.url), { dtype: "intc" })).rejects.toThrow(
        /has data type int64, not intc/,
      );
    } finally {
      await server.stop();
    }
  });
});

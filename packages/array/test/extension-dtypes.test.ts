// Arrays of the zarr-extensions data types, written and read back through the whole stack;
// the stored chunk bytes are checked against codes written by hand from the registry specs and
// (bfloat16) against numpy's float32 bits rounded in integer arithmetic.
import { createArray, openArray, type SetValue } from "@z/array";
import { InvalidDataTypeError } from "@z/metadata";
import { havePython, runPython } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

const hex = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString("hex");
const INF = Number.POSITIVE_INFINITY;

async function roundTrip(dtype: string, values: unknown[], options: Record<string, unknown> = {}) {
  const store = new Map<string, Uint8Array>();
  const arr = await createArray(store, {
    shape: [values.length],
    chunks: [values.length],
    dtype,
    compressors: null,
    ...options,
  });
  for (let i = 0; i < values.length; i++) await arr.set([i], values[i] as SetValue);
  const reopened = await openArray(store);
  const back = await reopened.get();
  const read = Array.from({ length: values.length }, (_, i) =>
    reopened.dataType.getElement(back.data, i),
  );
  return { store, chunk: hex(store.get("c/0")), read, arr: reopened };
}

// [dtype, values, the chunk by hand]: 1 sign bit, then exponent (bias), then mantissa.
const CASES: [string, number[], string][] = [
  ["bfloat16", [1, -2, 0.5, INF], "803f00c0003f807f"], // 0x3f80, 0xc000, 0x3f00, 0x7f80
  ["float8_e4m3", [1, -2, 240, -INF, 2 ** -9], "38c077f801"],
  ["float8_e5m2", [1, -2, 57344, INF], "3cc07b7c"],
  ["float8_e3m4", [1, -2, 15.5, 2 ** -6], "30c06f01"],
  ["float8_e4m3fnuz", [1, -2, 240, -0], "40c87f00"], // -0 is stored as +0
  ["float8_e4m3b11fnuz", [1, -2, 30], "58e07f"],
  ["float8_e5m2fnuz", [1, -2, 57344], "40c47f"],
  ["float8_e8m0fnu", [1, 2, 0.25, 2 ** 127], "7f807dfe"],
  ["float6_e2m3fn", [1, -2, 7.5, 0.125], "08301f01"],
  ["float6_e3m2fn", [1, -2, 28, 2 ** -4], "0c301f01"],
  ["float4_e2m1fn", [1, -2, 6, 0.5], "020c0701"],
];

describe("small float arrays: write, read back, chunk bytes by hand", () => {
  for (const [dtype, values, chunk] of CASES) {
    it(dtype, async () => {
      const fillValue = dtype === "float8_e8m0fnu" ? 1 : 0;
      const got = await roundTrip(dtype, values, { fillValue });
      expect(got.read.map((v) => (Object.is(v, -0) ? 0 : v))).toEqual(values.map((v) => v || 0));
      expect(got.chunk).toBe(chunk);
      expect(got.arr.dataType.name).toBe(dtype);
    });
  }

  it("bfloat16 big endian and a NaN fill value for chunks never written", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [4],
      chunks: [2],
      dtype: "bfloat16",
      fillValue: Number.NaN,
      compressors: null,
      serializer: { name: "bytes", configuration: { endian: "big" } },
    });
    await arr.set([0], 1.5);
    expect(hex(store.get("c/0"))).toBe("3fc07fc0"); // 1.5 and the README's NaN 0x7fc0
    const meta = JSON.parse(new TextDecoder().decode(store.get("zarr.json")));
    expect(meta.fill_value).toBe("NaN");
    expect(meta.data_type).toBe("bfloat16");
    const back = await (await openArray(store)).get();
    expect(Array.from(back.data as Float32Array)).toEqual([
      1.5,
      Number.NaN,
      Number.NaN,
      Number.NaN,
    ]);
  });

  it("values that do not fit are refused where they are written", async () => {
    const arr = await createArray(new Map(), { shape: [2], dtype: "float4_e2m1fn", fillValue: 0 });
    await expect(arr.set([0], 7)).rejects.toThrow(/beyond the largest float4_e2m1fn/);
    await expect(arr.set([0], Number.NaN)).rejects.toThrow(/has no NaN/);
    await arr.set([0], 5.5); // rounds to 6
    expect((await arr.get()).data[0]).toBe(6);
  });

  it("have no Zarr v2 form", async () => {
    await expect(
      createArray(new Map(), { shape: [2], dtype: "bfloat16", zarrFormat: 2 }),
    ).rejects.toThrow(InvalidDataTypeError);
  });
});

describe("bfloat16 against numpy", () => {
  const enabled = havePython("bfloat16 against numpy", ["numpy"]);
  it.runIf(enabled)(
    "the chunk equals float32 bits rounded to 16 in numpy integer arithmetic",
    async () => {
      const values = [Math.PI, -1e-3, 65504.5, 1.00390625, 1.01171875, 3e38, -7.25e-39, 1e-41];
      const { chunk } = await roundTrip("bfloat16", values);
      const script = [
        "import sys, numpy as np",
        "x = np.array([float(v) for v in sys.stdin.read().split()], dtype=np.float32).view(np.uint32).astype(np.uint64)",
        "r = ((x + 0x7fff + ((x >> 16) & 1)) >> 16).astype('<u2')",
        "print(r.tobytes().hex())",
      ].join("\n");
      expect(runPython(script, values.join(" ")).trim()).toBe(chunk);
    },
  );
});

describe("2- and 4-bit integers", () => {
  it("int4 through the bytes codec: one per byte, low nibble", async () => {
    const got = await roundTrip("int4", [-8, -1, 0, 7]);
    expect(got.read).toEqual([-8, -1, 0, 7]);
    expect(got.chunk).toBe("080f0007");
  });

  it("int4 through packbits: two per byte, the first in the low nibble", async () => {
    const values = Array.from({ length: 16 }, (_, i) => i - 8);
    const got = await roundTrip("int4", values, { serializer: { name: "packbits" } });
    expect(got.read).toEqual(values);
    // codes 8..15 then 0..7, paired low | high << 4.
    expect(got.chunk).toBe("98badcfe10325476");
  });

  it("uint2 through packbits with a padding byte; int2 refuses 2", async () => {
    const got = await roundTrip("uint2", [3, 0, 1, 2, 3], {
      serializer: { name: "packbits", configuration: { padding_encoding: "last_byte" } },
    });
    expect(got.read).toEqual([3, 0, 1, 2, 3]);
    expect(got.chunk).toBe("930306"); // 3 | 0 << 2 | 1 << 4 | 2 << 6, then 3 and 6 padding bits
    const arr = await createArray(new Map(), { shape: [1], dtype: "int2" });
    await expect(arr.set([0], 2)).rejects.toThrow(/expected an integer in -2\.\.1/);
  });
});

describe("complex_* arrays", () => {
  it("complex_float8_e4m3 and complex_float6_e2m3fn (packbits)", async () => {
    const a = await roundTrip("complex_float8_e4m3", [{ re: 1, im: -2 }], { fillValue: [0, 0] });
    expect(a.chunk).toBe("38c0");
    expect(a.read).toEqual([{ re: 1, im: -2 }]);
    const b = await roundTrip("complex_float6_e2m3fn", [{ re: 1, im: -1 }], {
      fillValue: [0, 0],
      serializer: { name: "packbits" },
    });
    expect(b.chunk).toBe("080a");
    expect(b.read).toEqual([{ re: 1, im: -1 }]);
  });

  it("complex_float32 stores what complex64 stores", async () => {
    const a = await roundTrip("complex_float32", [{ re: 1, im: -2 }], { fillValue: [0, 0] });
    const b = await roundTrip("complex64", [{ re: 1, im: -2 }], { fillValue: [0, 0] });
    expect(a.chunk).toBe(b.chunk);
    expect(JSON.parse(new TextDecoder().decode(a.store.get("zarr.json"))).data_type).toBe(
      "complex_float32",
    );
  });
});

describe("zarrita", () => {
  it("refuses to open a bfloat16 array (it does not know the data type)", async () => {
    const { store } = await roundTrip("bfloat16", [1, 2]);
    const location = zarrita.root({ get: async (key: string) => store.get(key.slice(1)) });
    let opened = false;
    try {
      const arr = await zarrita.open.v3(location, { kind: "array" });
      await zarrita.get(arr);
      opened = true;
    } catch {
      opened = false;
    }
    expect(opened).toBe(false);
  });
});

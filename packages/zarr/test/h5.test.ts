import {
  consolidateMetadata,
  createArray,
  LoggingStore,
  MapStore,
  NotFoundError,
  openArray,
  openGroup,
  ReadOnlyError,
  ReadOnlyStore,
  ValueShapeError,
  ValueTypeError,
} from "@z/zarr";
import {
  ClosedFileError,
  Dataset,
  File,
  FileExistsError,
  FileModeError,
  Group,
  H5File,
  H5TypeError,
  H5ValueError,
  NameExistsError,
  slice,
} from "@z/zarr/h5";
import { describe, expect, it } from "vitest";
import { MAXSHAPE_ATTRIBUTE } from "../src/h5/attrs.js";

const values = (chunk: { data: ArrayLike<unknown> }) =>
  Array.from(chunk.data, (v) => (typeof v === "bigint" ? Number(v) : v));

async function sampleFile(map = new Map<string, Uint8Array>(), zarrFormat: 2 | 3 = 3) {
  const f = await File(map, "w", { zarrFormat });
  const g = await f.createGroup("g");
  const d = await g.createDataset("d", {
    data: { data: Int16Array.from({ length: 12 }, (_, i) => i), shape: [3, 4] },
    chunks: [2, 2],
  });
  await d.attrs.set("units", "m");
  return { map, f, g, d };
}

describe("File modes", () => {
  it("r and r+ need an existing hierarchy; w- and x refuse one; a opens or creates; w truncates", async () => {
    const map = new Map<string, Uint8Array>();
    await expect(File(map, "r")).rejects.toThrow(NotFoundError);
    await expect(File(map, "r+")).rejects.toThrow(/needs an existing file/);
    const created = await File(map, "x");
    expect(await created.keys()).toEqual([]);
    await expect(File(map, "w-")).rejects.toThrow(FileExistsError);
    const appended = await File(map, "a");
    await appended.createGroup("kept");
    expect(await (await File(map, "a")).keys()).toEqual(["kept"]);
    expect((await File(map, "r+")).mode).toBe("r+");
    const { d } = await sampleFile(map);
    expect(map.size).toBeGreaterThan(3);
    await File(map, "w");
    expect([...map.keys()]).toEqual(["zarr.json"]);
    expect(d.name).toBe("/g/d");
    await expect(File(map, "rw" as never)).rejects.toThrow(/Invalid mode "rw"/);
  });

  it("mode r refuses every write with a ReadOnlyError naming the mode", async () => {
    const { map } = await sampleFile();
    const before = new Map(map);
    const f = await File(map, "r");
    expect(f.mode).toBe("r");
    const d = (await f.get("g/d")) as Dataset;
    const attempts: [string, () => Promise<unknown>][] = [
      ["create group", () => f.createGroup("x")],
      ["create dataset", () => f.createDataset("y", { shape: [1] })],
      ["create group", () => f.requireGroup("new")],
      ["write to", () => d.set([0, 0], 5)],
      ["resize", () => d.resize([1, 1])],
      ["write attributes of", () => d.attrs.set("a", 1)],
      ["write attributes of", () => f.attrs.delete("title")],
      ["delete", () => f.delete("g")],
      ["move", () => f.move("g", "h")],
      ["copy to", () => f.copy("g", "h")],
    ];
    for (const [action, attempt] of attempts) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error, action).toBeInstanceOf(FileModeError);
      expect(error, action).toBeInstanceOf(ReadOnlyError);
      expect((error as Error).message, action).toMatch(
        new RegExp(`^Cannot ${action} .*opened read-only \\(mode "r"\\)`),
      );
    }
    expect(map).toEqual(before);
    await expect(File(new ReadOnlyStore(new MapStore(map)), "r+")).resolves.toBeInstanceOf(H5File);
    await expect(File({ get: async (k: string) => map.get(k) }, "a")).rejects.toThrow(
      ReadOnlyError,
    );
  });

  it("refuses a store whose root is an array, and everything after close()", async () => {
    const map = new Map<string, Uint8Array>();
    await createArray(map, { shape: [2], dtype: "uint8" });
    await expect(File(map, "r")).rejects.toThrow(H5TypeError);
    const { f } = await sampleFile();
    expect(f).toBeInstanceOf(File);
    f.close();
    expect(f.closed).toBe(true);
    await expect(f.get("g")).rejects.toThrow(ClosedFileError);
    await expect(f.createGroup("x")).rejects.toThrow(ClosedFileError);
  });
});

describe("Group", () => {
  it("names clash, missing names, datasets on the way", async () => {
    const { f, g } = await sampleFile();
    await expect(f.createGroup("g")).rejects.toThrow(NameExistsError);
    await expect(g.createDataset("d", { shape: [1] })).rejects.toThrow(
      /Unable to create "d": the name already exists/,
    );
    await expect(f.createGroup("g/d/inner")).rejects.toThrow(H5TypeError);
    const missing = await f.get("g/nope").catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as Error).message).toMatch(
      /Unable to open object \("g\/nope" doesn't exist in \/\)/,
    );
    expect(await f.get("g/nope", null)).toBeNull();
    expect(await g.has("d")).toBe(true);
    expect(await g.has("/g/d")).toBe(true);
    expect(((await g.get("/g")) as Group).name).toBe("/g");
    expect(await g.get("/")).toBe(f);
    expect((await ((await g.get("d")) as Dataset).parent).name).toBe("/g");
    expect(await f.requireGroup("g/new")).toBeInstanceOf(Group);
    await expect(f.get("")).rejects.toThrow(H5ValueError);
  });

  it("requireDataset opens a compatible dataset and creates a missing one", async () => {
    const { g, d } = await sampleFile();
    expect((await g.requireDataset("d", [3, 4], "i1")).name).toBe(d.name);
    await expect(g.requireDataset("d", [3, 4], "u2")).rejects.toThrow(
      /Datatypes cannot be safely cast \(existing int16 vs new uint16\)/,
    );
    await expect(g.requireDataset("d", [4, 3], "i2")).rejects.toThrow(
      /Shapes do not match \(existing \(3, 4\) vs new \(4, 3\)\)/,
    );
    const made = await g.requireDataset("e", 5, "f8", { fillvalue: 2 });
    expect(made.shape).toEqual([5]);
    expect(values(await made.get())).toEqual([2, 2, 2, 2, 2]);
  });

  it("copies between files, converting the Zarr format when they differ", async () => {
    const { d } = await sampleFile();
    const other = await File(new Map(), "w", { zarrFormat: 2 });
    await other.copy(d, other);
    const copy = (await other.get("d")) as Dataset;
    expect(copy.array.zarrFormat).toBe(2);
    expect(values(await copy.get())).toEqual(values(await d.get()));
    expect(copy.attrs.get("units")).toBe("m");
    expect(copy.maxshape).toEqual([3, 4]);
  });
});

describe("Dataset", () => {
  it("keeps maxshape in a hidden attribute; arrays from other tools resize freely", async () => {
    const { f, map, d } = await sampleFile();
    expect(d.maxshape).toEqual([3, 4]);
    expect(d.attrs.keys()).toEqual(["units"]);
    expect(d.array.attrs[MAXSHAPE_ATTRIBUTE]).toEqual([3, 4]);
    await expect(d.attrs.set(MAXSHAPE_ATTRIBUTE, [9, 9])).rejects.toThrow(H5ValueError);
    await expect(d.resize([4, 4])).rejects.toThrow(/axis 0 cannot exceed the maximum 3/);
    await d.resize([2, 4]);
    expect(values(await d.get())).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const grow = await f.createDataset("grow", { shape: [0], dtype: "f4", maxshape: [null] });
    expect(grow.chunks).toEqual([1024]);
    await grow.resize(5000);
    await expect(
      f.createDataset("c", { shape: [4], maxshape: [null], chunks: false }),
    ).rejects.toThrow(/Chunked format required/);
    await createArray(map, { path: "plain", shape: [2], dtype: "uint8" });
    const plain = (await f.get("plain")) as Dataset;
    expect(plain.maxshape).toEqual([null]);
    await plain.resize(100);
    expect(plain.shape).toEqual([100]);
  });

  it("maps compression to Zarr codecs and reads it back", async () => {
    for (const zarrFormat of [2, 3] as const) {
      const f = await File(new Map(), "w", { zarrFormat });
      const cases = [
        [{ compression: "gzip" as const, compression_opts: 9 }, "gzip", 9],
        [{ compression: 5 }, "gzip", 5],
        [{ compression: "zstd" as const }, "zstd", 3],
        [{ compression: "lz4" as const }, "lz4", 1],
        [
          {
            compression: "blosc" as const,
            compression_opts: { cname: "zstd", clevel: 2, shuffle: "bitshuffle" as const },
          },
          "blosc",
          { cname: "zstd", clevel: 2, shuffle: "bitshuffle" },
        ],
        [{ shuffle: true, fletcher32: true }, null, null],
      ] as const;
      for (const [i, [options, compression, opts]] of cases.entries()) {
        const data = Float64Array.from({ length: 50 }, (_, k) => Math.sin(k));
        const d = await f.createDataset(`d${i}`, { data, chunks: [16], ...options });
        expect(d.compression).toBe(compression);
        expect(d.compression_opts).toEqual(opts);
        expect(
          values(await ((await (await File(f.store, "r")).get(`d${i}`)) as Dataset).get()),
        ).toEqual(Array.from(data));
      }
      await expect(
        f.createDataset("lzf", { shape: [1], compression: "lzf" as never }),
      ).rejects.toThrow(/"lzf" is not available in Zarr/);
      await expect(
        f.createDataset("bad", { shape: [1], compression: "gzip", compression_opts: 12 }),
      ).rejects.toThrow(H5ValueError);
    }
  });

  it("takes NumPy-style dtypes, scalars, reshaped data; rows iterate; scalars neither iterate nor have a length", async () => {
    const f = await File(new Map(), "w");
    const dtypes: [string, string][] = [
      ["f", "float32"],
      ["d", "float64"],
      ["?", "bool"],
      ["i2", "int16"],
      ["<f8", "float64"],
      [">i4", "int32"],
      ["uint8", "uint8"],
      ["B", "uint8"],
    ];
    for (const [i, [given, name]] of dtypes.entries())
      expect((await f.createDataset(`t${i}`, { shape: [2], dtype: given })).dtype).toBe(name);
    await expect(f.createDataset("x", { shape: [2], dtype: "q9" })).rejects.toThrow(
      /Unknown dtype "q9"/,
    );
    await expect(f.createDataset("x", {})).rejects.toThrow(H5TypeError);
    expect((await f.createDataset("default", { shape: [1] })).dtype).toBe("float32");
    const reshaped = await f.createDataset("r", { shape: [2, 3], data: [1, 2, 3, 4, 5, 6] });
    expect(reshaped.dtype).toBe("int64");
    expect(values(await reshaped.get([1]))).toEqual([4, 5, 6]);
    const rows = [];
    for await (const row of reshaped) rows.push(values(row));
    expect(rows).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const scalar = await f.createDataset("s", { data: true });
    expect(scalar.shape).toEqual([]);
    expect(() => scalar.length).toThrow(H5TypeError);
    await expect(
      (async () => {
        for await (const _ of scalar) break;
      })(),
    ).rejects.toThrow(/Can't iterate over the scalar dataset \/s/);
    expect(String(reshaped)).toBe('<Zarr h5 dataset "/r": shape (2, 3), type "int64">');
    expect(
      values(
        await reshaped.get({
          coordinates: [
            [0, 1],
            [2, 0],
          ],
        }),
      ),
    ).toEqual([3, 4]);
    expect(values(await reshaped.get([slice(null, null, -1), -1]))).toEqual([6, 3]);
  });
});

describe("Dataset reads into a caller's container (h5py's read_direct)", () => {
  it("get passes `out` through: the result's data is `out`; an unfit `out` is a typed error", async () => {
    const { d } = await sampleFile();
    const out = new Int16Array(4).fill(-1);
    const row = await d.get([1, null], { out });
    expect(row.data).toBe(out);
    expect(Array.from(out)).toEqual([4, 5, 6, 7]);
    const masked = await d.get([[true, false, true], 0], { out: out.subarray(0, 2) });
    expect(Array.from(masked.data)).toEqual([0, 8]);
    await expect(d.get(undefined, { out })).rejects.toThrow(ValueShapeError);
    await expect(d.get([0, null], { out: new Int32Array(4) })).rejects.toThrow(ValueTypeError);
  });
});

describe("consolidated metadata through the h5 layer", () => {
  it("a read-only file lists a consolidated hierarchy from one read", async () => {
    const { map } = await sampleFile();
    await consolidateMetadata(map);
    const store = new LoggingStore(new MapStore(map));
    const f = await File(store, "r");
    const names: string[] = [];
    await f.visititems((name, node) => {
      names.push(`${name}:${node instanceof Dataset ? "dataset" : "group"}`);
    });
    expect(names).toEqual(["g:group", "g/d:dataset"]);
    expect(((await f.get("g/d")) as Dataset).attrs.get("units")).toBe("m");
    expect(store.requests.map((r) => r.key)).toEqual(["zarr.json"]);
  });

  for (const zarrFormat of [2, 3] as const) {
    it(`v${zarrFormat}: a moved or copied group keeps the consolidated metadata it held, and its chunks`, async () => {
      const { map } = await sampleFile(new Map(), zarrFormat);
      await consolidateMetadata(map, { path: "g" });
      const f = await File(map, "r+");
      await f.move("g", "h");
      await f.copy("h", "k");
      for (const path of ["h", "k"]) {
        const group = await openGroup(map, { path, consolidated: true });
        expect(group.consolidated?.paths()).toEqual(["d"]);
        const d = await openArray(map, { path: `${path}/d` });
        expect(Array.from((await d.get()).data as Int16Array)).toEqual(
          Array.from({ length: 12 }, (_, i) => i),
        );
        expect(d.attrs.units).toBe("m");
      }
      expect(await f.has("g")).toBe(false);
    });
  }

  for (const zarrFormat of [2, 3] as const) {
    it(`v${zarrFormat}: writes through a writable file keep the root's consolidated metadata current`, async () => {
      const { map } = await sampleFile(new Map(), zarrFormat);
      await consolidateMetadata(map);
      const f = await File(map, "r+");
      await f.createDataset("g/new", { shape: [3], dtype: "u1" });
      await ((await f.get("g/d")) as Dataset).resize([2, 2]);
      await ((await f.get("g")) as Group).attrs.set("note", "changed");
      await f.move("g/new", "moved");
      await f.copy("g", "g2");
      await f.delete("g2/d");
      await f.attrs.set("top", 1);
      const root = await openGroup(map);
      const fresh = await consolidateMetadata(new Map(map));
      expect(root.consolidated?.toJson()).toEqual(fresh.consolidated?.toJson());
      expect(root.consolidated?.paths()).toEqual(["g", "g/d", "g2", "moved"]);
      expect(((await root.get("g/d")) as { shape: number[] }).shape).toEqual([2, 2]);
      expect(((await root.get("g")) as { attrs: object }).attrs).toEqual({ note: "changed" });
      expect(root.attrs).toEqual({ top: 1 });
      expect((await openArray(map, { path: "moved" })).shape).toEqual([3]);
    });
  }
});

describe("walks and counts through the Zarr group underneath", () => {
  it("visit goes on past null as h5py does past None, and stops at a value; len and has", async () => {
    const { f, g } = await sampleFile();
    await f.createGroup("a/b");
    const seen: string[] = [];
    const stopped = await f.visit((name) => {
      seen.push(name);
      return name === "a/b" ? name.length : null;
    });
    expect(stopped).toBe(3);
    expect(seen).toEqual(["a", "a/b"]);
    const all: string[] = [];
    expect(await f.visit((name) => void all.push(name))).toBeUndefined();
    expect(all).toEqual(["a", "a/b", "g", "g/d"]);
    expect(await f.len()).toBe(2);
    expect(await g.len()).toBe(1);
    expect(await g.has("/a/b")).toBe(true);
    expect(await g.has("b")).toBe(false);
  });
});

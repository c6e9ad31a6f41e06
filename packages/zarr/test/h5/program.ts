/**
 * h5py-program.py, line for line, through @z/zarr/h5: the same calls, the same JSON out. The
 * test compares the two outputs.
 */
import { type Dataset, File, type Group, slice } from "@z/zarr/h5";

type Json = unknown;

const range = (n: number, f: (i: number) => number = (i) => i) =>
  Array.from({ length: n }, (_, i) => f(i));

function flat(chunk: { data: ArrayLike<unknown> }, dtype: string): unknown[] {
  const items = Array.from(chunk.data);
  return dtype === "bool"
    ? items.map(Boolean)
    : items.map((v) => (typeof v === "bigint" ? Number(v) : v));
}

export async function h5Program(
  path: string,
): Promise<{ out: Record<string, Json>; errors: Record<string, string | null> }> {
  const out: Record<string, Json> = {};
  const errors: Record<string, string | null> = {};
  const err = async (name: string, fn: () => unknown) => {
    try {
      await fn();
      errors[name] = null;
    } catch (error) {
      errors[name] = (error as Error).name;
    }
  };
  const props = async (d: Dataset) => ({
    name: d.name,
    parent: (await d.parent).name,
    shape: d.shape,
    dtype: d.dtype,
    len: d.length,
    compression: d.compression,
    compression_opts: d.compression_opts,
    shuffle: d.shuffle,
    fillvalue: Number(d.fillvalue),
    maxshape: d.maxshape,
    attrs: Object.fromEntries(d.attrs.items()),
  });

  {
    const f = await File(path, "w");
    await f.attrs.set("title", "survey");
    await f.attrs.set("version", 3);
    const g = await f.createGroup("measurements");
    const run = await g.createGroup("run1");
    await f.createGroup("a/b/c");
    const temps = await run.createDataset("temps", {
      data: { data: Float32Array.from(range(60)), shape: [6, 10] },
      chunks: [4, 4],
      compression: "gzip",
      compression_opts: 6,
      maxshape: [null, 10],
      fillvalue: -1,
    });
    await temps.attrs.set("units", "K");
    const counts = await g.createDataset("counts", {
      shape: [5, 7],
      dtype: "i4",
      chunks: [2, 3],
      compression: "gzip",
      shuffle: true,
    });
    await counts.set([slice(1, 4), slice(2, 6)], {
      data: Int32Array.from(range(12)),
      shape: [3, 4],
    });
    await counts.set([0, null], 7);
    const flags = await f.createDataset("flags", { data: [true, false, true, true] });
    const scalar = await f.createDataset("scalar", { data: 3.25 });
    await temps.resize([9, 10]);
    out.grown_fill = flat(await temps.get([8]), temps.dtype);
    await temps.set([slice(6, 8), null], {
      data: Float32Array.from(range(20, (i) => 100 + i)),
      shape: [2, 10],
    });
    await temps.resize(8, 0);
    await err("resize_beyond_maxshape", () => counts.resize([6, 7]));
    await err("resize_wrong_rank", () => temps.resize([8]));
    out.require_ok = (await g.requireDataset("counts", [5, 7], "i2")).name;
    await err("require_shape_mismatch", () => g.requireDataset("counts", [5, 8], "i4"));
    await err("require_dtype_unsafe", () => g.requireDataset("counts", [5, 7], "f8"));
    await err("require_exact", () => g.requireDataset("counts", [5, 7], "i2", { exact: true }));
    await err("require_group_on_dataset", () => g.requireGroup("counts"));
    out.require_group = (await f.requireGroup("measurements")).name;
    await err("create_existing_group", () => f.createGroup("measurements"));
    await err("create_existing_dataset", () => g.createDataset("counts", { shape: [1] }));
    await err("missing", () => f.get("nope"));
    await err("maxshape_too_small", () => f.createDataset("bad", { shape: [4], maxshape: [3] }));
    await err("data_shape_mismatch", () =>
      f.createDataset("bad2", { shape: [3], data: Int32Array.from(range(4)) }),
    );
    out.get_default = (await f.get("nope", null)) === null;
    out.temps = await props(temps);
    out.counts = await props(counts);
    out.scalar = { shape: scalar.shape, dtype: scalar.dtype, value: (await scalar.get()).data[0] };
    await err("len_scalar", () => scalar.length);
    out.flags = flat(await flags.get(), flags.dtype);
    const mask = { data: range(35, (i) => i % 3).map((r) => r === 0), shape: [5, 7] };
    const rows: unknown[] = [];
    for await (const row of counts) rows.push(flat(row, counts.dtype));
    const reads: Record<string, Json> = {
      all: flat(await temps.get(), "float32"),
      slice: flat(await temps.get([slice(1, 7, 2), slice(3, 9, 3)]), "float32"),
      int_row: flat(await temps.get([2]), "float32"),
      element: (await temps.get([7, 9])).data[0],
      fancy_rows: flat(await temps.get([[0, 2, 5], null]), "float32"),
      fancy_cols: flat(await temps.get([slice(1, 3), [1, 4, 8]]), "float32"),
      bool_axis: flat(
        await counts.get([null, [true, false, true, false, false, true, true]]),
        "int32",
      ),
      mask: flat(await counts.get(mask), "int32"),
      iter: rows,
    };
    out.reads = reads;
    await temps.resize([10, 10]);
    reads.regrown = flat(await temps.get([slice(7, 10)]), "float32");
    await f.move("a/b", "moved");
    await f.copy("measurements/run1", "run1_copy");
    await f.copy(temps, g, { name: "temps_again" });
    await f.copy(g, "shallow", { shallow: true });
    await f.copy(counts, "bare", { without_attrs: true });
    await f.delete("flags");
    await err("delete_missing", () => f.delete("flags"));
    await err("move_onto_existing", () => f.move("scalar", "moved"));
    await err("move_missing", () => f.move("nothing", "elsewhere"));
    await err("copy_onto_existing", () => f.copy("scalar", "moved"));
    const names: string[] = [];
    await f.visit((name) => {
      names.push(name);
    });
    out.visit = names;
    const items: [string, string][] = [];
    await f.visititems((name, node) => {
      items.push([name, "shape" in node ? "dataset" : "group"]);
    });
    out.visititems = items;
    out.visit_stop = await f.visit((name) => (name.endsWith("temps") ? name : undefined));
    out.keys_root = await f.keys();
    out.keys_g = await g.keys();
    out.len_root = await f.len();
    out.contains = [
      await f.has("measurements/run1/temps"),
      await f.has("nope"),
      await g.has("/measurements"),
      await g.has("run1"),
    ];
    const again = (await f.get("measurements/temps_again")) as Dataset;
    out.copied =
      JSON.stringify(flat(await again.get(), "float32")) ===
      JSON.stringify(flat(await temps.get(), "float32"));
    out.copy_attrs = Object.fromEntries(
      ((await f.get("run1_copy/temps")) as Dataset).attrs.items(),
    );
    out.bare_attrs = Object.fromEntries(((await f.get("bare")) as Dataset).attrs.items());
    out.moved_keys = await ((await f.get("moved")) as Group).keys();
    out.attrs_root = Object.fromEntries(f.attrs.items());
    await f.attrs.delete("version");
    out.attrs_after_delete = f.attrs.keys();
    await err("attr_missing", () => f.attrs.get("version"));
    out.attr_get_default = f.attrs.get("version", "none");
    out.attr_contains = [f.attrs.has("title"), f.attrs.has("version")];
    f.close();
  }
  {
    const f = await File(path, "r");
    await err("ro_create_group", () => f.createGroup("x"));
    await err("ro_create_dataset", () => f.createDataset("y", { shape: [1] }));
    await err("ro_write", async () =>
      ((await f.get("measurements/counts")) as Dataset).set([0, 0], 1),
    );
    await err("ro_attrs", () => f.attrs.set("k", 1));
    await err("ro_resize", async () =>
      ((await f.get("measurements/run1/temps")) as Dataset).resize([3, 10]),
    );
    await err("ro_delete", () => f.delete("scalar"));
    out.ro_mode = f.mode;
    out.ro_title = f.attrs.get("title");
  }
  await err("wx_existing", () => File(path, "w-"));
  await err("r_missing", () => File(`${path}.missing`, "r"));
  await err("rplus_missing", () => File(`${path}.missing`, "r+"));
  {
    const f = await File(path, "a");
    out.a_keys = await f.keys();
    out.a_mode = f.mode;
  }
  {
    const f = await File(path, "w");
    out.w_keys = await f.keys();
  }
  return { out, errors };
}

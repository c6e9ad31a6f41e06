// The quick start: create Zarr v3 and v2 arrays on disk, write them, read slices back.
// Run with `pnpm demo` from the repository root (it builds the packages first).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArray, createGroup, FsStore, openArray, openGroup, slice } from "@z/zarr";

const dir = mkdtempSync(join(tmpdir(), "z-quickstart-"));
const store = new FsStore(join(dir, "example.zarr"));

// A v3 hierarchy: a group with a compressed 2-d float32 array and named dimensions.
const root = await createGroup(store, { attributes: { title: "quick start" } });
const temperature = await root.createArray("temperature", {
  shape: [365, 180, 360],
  chunks: [30, 90, 90],
  dtype: "float32",
  dimensionNames: ["day", "lat", "lon"],
  compressors: [{ name: "gzip", configuration: { level: 5 } }],
  fillValue: Number.NaN,
  attributes: { units: "degC" },
});

// Write one day as an n-d value ({data, shape}), and a whole region as a scalar.
const day = new Float32Array(180 * 360).map((_, i) => 15 + 10 * Math.sin(i / 360));
await temperature.set([0, null, null], { data: day, shape: [180, 360] });
await temperature.set([slice(1, 7), slice(0, 90), slice(0, 90)], -1.5);

// Read slices back: negative steps and negative indices work as in NumPy.
const row = await temperature.get([0, 10, slice(0, 5)]);
const reversed = await temperature.get([slice(6, 0, -1), 0, 0]);
const unwritten = await temperature.get([-1, -1, -1]);
console.log("v3 temperature", temperature.shape, temperature.dtype, "chunks", temperature.chunks);
console.log("  day 0, lat 10, lon 0..4:", Array.from(row.data, (v) => v.toFixed(3)).join(" "));
console.log("  days 6..1 at (0, 0):     ", Array.from(reversed.data).join(" "));
console.log("  never written (fill NaN):", unwritten.data[0]);

// A sharded v3 array: 16 chunks of 64x64 per 256x256 shard, read back by region.
const image = await root.createArray("image", {
  shape: [512, 512],
  shards: [256, 256],
  chunks: [64, 64],
  dtype: "uint16",
  compressors: [{ name: "zstd", configuration: { level: 3 } }],
});
await image.set(null, {
  data: Uint16Array.from({ length: 512 * 512 }, (_, i) => i % 4096),
  shape: [512, 512],
});
const patch = await image.get([slice(100, 102), slice(250, 262, 4)]);
console.log("sharded image", image.shape, "shards", image.shards, "chunks", image.chunks);
console.log("  rows 100..101, columns 250..261 step 4:", Array.from(patch.data).join(" "));

// A v2 array (readable by zarr-python 2), F order, big-endian, written and read back.
const legacy = new FsStore(join(dir, "legacy.zarr"));
const counts = await createArray(legacy, {
  path: "counts",
  zarrFormat: 2,
  shape: [4, 6],
  chunks: [2, 4],
  dtype: ">i4",
  order: "F",
  compressor: { id: "zlib", level: 1 },
});
await counts.set(null, { data: Int32Array.from({ length: 24 }, (_, i) => i * i), shape: [4, 6] });
const reopened = await openArray(legacy, { path: "counts" });
const column = await reopened.get([slice(null), 5]);
console.log(
  "v2 counts",
  reopened.shape,
  reopened.metadata.v2.dtype,
  "order",
  reopened.metadata.v2.order,
);
console.log("  column 5:", Array.from(column.data).join(" "));

// Walk the hierarchy.
console.log((await openGroup(store)).toString());
console.log(await (await openGroup(store)).tree());

rmSync(dir, { recursive: true, force: true });

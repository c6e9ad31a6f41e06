// Runs in the browser bundle: writes and reads arrays in memory with the codecs that have
// browser code paths (fflate/pako deflate, WASM zstd, TypeScript blosc and lz4), and strings.
import { createArray, openArray, slice } from "@z/zarr";

async function roundTrip(compressors, zarrFormat = 3, dtype = "float32") {
  const store = new Map();
  const arr = await createArray(store, {
    shape: [20, 30],
    chunks: [7, 8],
    dtype,
    compressors,
    zarrFormat,
  });
  const data = Float32Array.from({ length: 600 }, (_, i) => Math.sin(i / 10) * 100);
  await arr.set(null, { data, shape: [20, 30] });
  const back = await (await openArray(store)).get([slice(3, 18, 2), slice(null, null, -3)]);
  let sum = 0;
  for (const v of back.data) sum += v;
  return { shape: back.shape, sum: Math.round(sum * 1000) / 1000 };
}

async function strings() {
  const store = new Map();
  const arr = await createArray(store, { shape: [4], chunks: [3], dtype: "string", fillValue: "" });
  await arr.set(null, ["a", "ünï", "🚀", ""]);
  return (await arr.get()).data;
}

window.__run = async () => ({
  none: await roundTrip(null),
  gzip: await roundTrip([{ name: "gzip", configuration: { level: 5 } }]),
  zstd: await roundTrip([{ name: "zstd", configuration: { level: 3, checksum: true } }]),
  blosc: await roundTrip([
    { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4 } },
  ]),
  zlibV2: await roundTrip({ id: "zlib", level: 1 }, 2),
  lz4V2: await roundTrip({ id: "lz4", acceleration: 1 }, 2),
  strings: await strings(),
});

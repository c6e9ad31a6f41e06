// Both browser stores through the array API: create, write, reopen from a new store, read.
import {
  collectKeys,
  createArray,
  type FullStore,
  IndexedDBStore,
  OPFSStore,
  openArray,
  slice,
} from "@z/zarr";

/** The same steps the Node test runs against a MemoryStore for the expected results. */
async function roundTrip(
  make: () => Promise<FullStore>,
  reopen: () => Promise<FullStore>,
  values: number[],
) {
  const store = await make();
  await store.deletePrefix(""); // a fresh start, whatever an earlier run left
  const arr = await createArray(store, {
    path: "grid",
    shape: [20, 30],
    chunks: [7, 8],
    dtype: "float32",
    compressors: [{ name: "gzip", configuration: { level: 1 } }],
  });
  await arr.set(null, { data: Float32Array.from(values), shape: [20, 30] });
  await arr.set([slice(2, 9), slice(5, 6)], -1);
  const again = await openArray(await reopen(), { path: "grid" });
  const part = await again.get([slice(1, 12, 2), slice(null, null, -4)]);
  return {
    part: Array.from(part.data as Float32Array),
    shape: part.shape,
    keys: await collectKeys(store.list()),
  };
}

(globalThis as Record<string, unknown>).__run = async (arg: { values: number[] }) => {
  await IndexedDBStore.deleteDatabase("arrays-test");
  const indexedDB = await roundTrip(
    () => IndexedDBStore.open("arrays-test"),
    () => IndexedDBStore.open("arrays-test"),
    arg.values,
  );
  const opfs = await roundTrip(
    () => OPFSStore.open("arrays-test/data.zarr"),
    () => OPFSStore.open("arrays-test/data.zarr"),
    arg.values,
  );
  return { indexedDB, opfs };
};

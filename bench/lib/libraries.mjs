// The two libraries behind one small interface, so the suite runs them the same way.
import { readFile } from "node:fs/promises";
import { createArray, FsStore, openArray, slice, ZarrArray } from "@z/zarr";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarrita from "zarrita";

/**
 * A library under test:
 * - `write(dir, volume, codecs, settings)`: creates a v3 float32 array in the folder `dir`
 *   with chunk shape `settings.chunks` and writes the whole volume;
 * - `open(dir, settings)`: opens the array in `dir` (metadata read once);
 * - `readAll(handle)`: reads the whole array, `{data, shape, stride}`;
 * - `readRegion(handle, start, size)`: reads one box through a new array object (cold: its
 *   codec pipeline is built anew, as when a client opens an array to read one chunk).
 */
export const ours = {
  name: "ours",
  async write(dir, volume, codecs, settings) {
    const store = new FsStore(dir, { fsync: settings.fsync });
    const arr = await createArray(store, {
      shape: volume.shape,
      chunks: settings.chunks,
      dtype: "float32",
      codecs,
      fillValue: 0,
    });
    await arr.set(null, { data: volume.data, shape: volume.shape });
  },
  async open(dir, settings) {
    const store = new FsStore(dir, { fsync: settings.fsync });
    return openArray(store);
  },
  readAll(arr) {
    return arr.get();
  },
  readRegion(arr, start, size) {
    const fresh = new ZarrArray(arr.store, arr.path, arr.metadata);
    return fresh.get(start.map((s, i) => slice(s, s + size[i])));
  },
};

/** zarrita, with its own filesystem store from @zarrita/storage. */
export const zarritaLib = {
  name: "zarrita",
  async write(dir, volume, codecs, settings) {
    const store = new FileSystemStore(dir);
    const arr = await zarrita.create(store, {
      shape: volume.shape,
      chunkShape: settings.chunks,
      dtype: "float32",
      codecs,
      fillValue: 0,
    });
    await zarrita.set(arr, null, { data: volume.data, shape: volume.shape, stride: volume.stride });
  },
  async open(dir) {
    const store = new FileSystemStore(dir);
    const arr = await zarrita.open.v3(store, { kind: "array" });
    // The raw metadata, so that readRegion can build fresh array objects without re-reading it.
    const metadata = JSON.parse(await readFile(`${dir}/zarr.json`, "utf8"));
    return { arr, store, metadata };
  },
  readAll(handle) {
    return zarrita.get(handle.arr);
  },
  readRegion(handle, start, size) {
    const fresh = new zarrita.Array(handle.store, handle.arr.path, handle.metadata);
    return zarrita.get(
      fresh,
      start.map((s, i) => zarrita.slice(s, s + size[i])),
    );
  },
};

/** Both libraries, ours first. */
export const LIBRARIES = [ours, zarritaLib];

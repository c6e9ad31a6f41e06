// The same read as zarr-app.js through the core packages only (no Arrow, strings, zip).
import { openArray } from "@z/array";
import { slice } from "@z/indexing";
import { HttpStore } from "@z/store-http";

window.__read = async (url, path) => {
  const array = await openArray(new HttpStore(url), { path });
  const chunk = await array.get([slice(1, 5), null]);
  return { shape: chunk.shape, data: Array.from(chunk.data) };
};

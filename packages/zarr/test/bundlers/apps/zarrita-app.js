// The same read with zarrita, for comparing first-load sizes.
import * as zarr from "zarrita";

window.__read = async (url, path) => {
  const array = await zarr.open(new zarr.FetchStore(url + path), { kind: "array" });
  const chunk = await zarr.get(array, [zarr.slice(1, 5), null]);
  return { shape: chunk.shape, data: Array.from(chunk.data) };
};

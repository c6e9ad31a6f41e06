// A browser app that reads an Icechunk repository by location string through the umbrella
// package, with nothing Icechunk-specific imported: the `icechunk+` location loads the reader.
import { openArray } from "@z/zarr";

window.__read = async (location, path) => {
  const array = await openArray(location, { path });
  const values = await array.get();
  return { crossOriginIsolated: window.crossOriginIsolated, data: Array.from(values.data) };
};

// A sharded array read over HTTP in the browser: the page records its requests and bytes.
import { HttpStore, openArray, slice } from "@z/zarr";
import { type PageRequest, recordingFetch } from "./page-fetch.js";

(globalThis as Record<string, unknown>).__run = async (arg: { dataUrl: string }) => {
  const opening: PageRequest[] = [];
  const arr = await openArray(new HttpStore(arg.dataUrl, { fetch: recordingFetch(opening) }), {
    path: "volume",
  });
  // A second store for the reads alone, so their requests are told apart from the opening.
  const reading: PageRequest[] = [];
  const reader = await openArray(new HttpStore(arg.dataUrl, { fetch: recordingFetch(reading) }), {
    path: "volume",
  });
  reading.length = 0;
  const part = await reader.get([slice(16, 32), slice(32, 48)]);
  return {
    shape: arr.shape,
    part: Array.from(part.data as Float32Array),
    partShape: part.shape,
    reading,
  };
};

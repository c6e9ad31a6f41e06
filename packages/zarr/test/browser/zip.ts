// A Zarr hierarchy in a zip archive, read over HTTP by byte ranges in the browser.
import { HttpStore, openArray, slice, ZipStore } from "@z/zarr";
import { type PageRequest, recordingFetch } from "./page-fetch.js";

(globalThis as Record<string, unknown>).__run = async (arg: { dataUrl: string }) => {
  const requests: PageRequest[] = [];
  const zip = await ZipStore.fromStore(
    new HttpStore(arg.dataUrl, { fetch: recordingFetch(requests) }),
    "archive.zip",
  );
  const arr = await openArray(zip, { path: "grid" });
  const whole = await arr.get();
  const part = await arr.get([slice(2, 5), slice(null, null, 3)]);
  return {
    whole: Array.from(whole.data as Int32Array),
    part: Array.from(part.data as Int32Array),
    partShape: part.shape,
    requests,
  };
};

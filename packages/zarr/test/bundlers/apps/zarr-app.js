// The app the bundler tests build: opens an array over HTTP and reads a slice, importing the
// umbrella package with no bundler configuration. The test page calls window.__read.
import { HttpStore, openArray, slice } from "@z/zarr";

window.__read = async (url, path) => {
  const array = await openArray(new HttpStore(url), { path });
  const chunk = await array.get([slice(1, 5), null]);
  return { shape: chunk.shape, data: Array.from(chunk.data) };
};

// Two suffix reads of one key through one store: the first cannot know the size (a preflighted
// `bytes=-n`), the second can (an explicit, CORS-safelisted range).
window.__suffixTwice = async (url, key) => {
  const store = new HttpStore(url);
  const first = await store.get(key, { range: { suffix: 16 } });
  const second = await store.get(key, { range: { suffix: 8 } });
  return [Array.from(first), Array.from(second)];
};

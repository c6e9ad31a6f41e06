// The arrays the test apps read over HTTP, and what their read returns.
import path from "node:path";
import { createArray, FsStore } from "@z/zarr";

/** The shape of every array the apps read. */
export const SHAPE = [6, 5];
/** The values of every array the apps read. */
export const VALUES = Uint16Array.from({ length: 30 }, (_, i) => i * 37 + 1);
/** What the apps' `array.get([slice(1, 5), null])` returns: rows 1 to 4. */
export const EXPECTED = { shape: [4, 5], data: Array.from(VALUES.subarray(5, 25)) };

/**
 * Writes one uint16 array of {@link VALUES} per entry of `arrays` (path → createArray options)
 * into `<dir>/data`, in chunks of 3 × 5, and returns that folder.
 */
export async function writeAppArrays(dir: string, arrays: Record<string, object>): Promise<string> {
  const root = path.join(dir, "data");
  const store = new FsStore(root);
  for (const [name, options] of Object.entries(arrays)) {
    const array = await createArray(store, {
      path: name,
      shape: SHAPE,
      chunks: [3, 5],
      dtype: "uint16",
      ...options,
    } as never);
    await array.set(null, { data: VALUES, shape: SHAPE });
  }
  return root;
}

import { createArray, type ZarrArray } from "@z/array";

/** The data type option of {@link createArray}: a data type or its name. */
type DtypeOption = Parameters<typeof createArray>[1]["dtype"];

/**
 * An uncompressed array in a fresh `Map` store (test helper), by default three elements in
 * chunks of one, so a write to element 1 touches one chunk and the store shows what it wrote.
 */
export async function mapStoreArray(
  dtype: DtypeOption,
  shape: number[] = [3],
  chunks: number[] = [1],
): Promise<{ arr: ZarrArray; store: Map<string, Uint8Array> }> {
  const store = new Map<string, Uint8Array>();
  const arr = await createArray(store, { shape, chunks, dtype, compressors: null });
  return { arr, store };
}

/** The element at `index` of a one-dimensional array, read back through `get` (test helper). */
export async function elementAt(arr: ZarrArray, index: number): Promise<unknown> {
  const got = await arr.get([index]);
  return arr.metadata.dataType.getElement(got.data, 0);
}

import { AzureBlobStore } from "@z/store-azure";
import { ConflictError } from "@z/store-core";
import { type Azurite, startAzurite } from "@z/test-utils";
import { createArray, openArray, slice } from "@z/zarr";
import { afterAll, beforeAll, expect, it } from "vitest";

/*
 * Writers that share nothing but the container, as processes on different machines would: each
 * has its own AzureBlobStore (so no in-process lock is shared), and all write regions of one
 * sharded array at once, regions that do not line up with the shards. Every shard on a boundary
 * is read-modified-written by two writers; conditional writes (If-Match / If-None-Match on the
 * blob's ETag) must keep every element.
 */

let azurite: Azurite;
beforeAll(async () => {
  azurite = await startAzurite();
  await new AzureBlobStore({
    container: "writers",
    connectionString: azurite.connectionString,
  }).createContainer();
});
afterAll(() => azurite.stop());

/** Region boundaries: none falls on a shard boundary (multiples of 16). */
const BOUNDS = [0, 13, 29, 45, 64];
const valueAt = (writer: number, i: number) => (writer + 1) * 1000 + i;

/** A store for one writer that counts the conditional writes the service refused. */
function writerStore(conflicts: { count: number }): AzureBlobStore {
  const store = new AzureBlobStore({
    container: "writers",
    path: "shared.zarr",
    connectionString: azurite.connectionString,
  });
  const set = store.set.bind(store);
  store.set = async (key, value, options) => {
    try {
      await set(key, value, options);
    } catch (error) {
      if (error instanceof ConflictError) conflicts.count++;
      throw error;
    }
  };
  return store;
}

it("four writers of unaligned regions of one sharded array lose no element", async () => {
  const setup = new AzureBlobStore({
    container: "writers",
    path: "shared.zarr",
    connectionString: azurite.connectionString,
  });
  await createArray(setup, {
    shape: [64],
    shards: [16],
    chunks: [4],
    dtype: "int32",
    fillValue: -1,
  });
  const conflicts = { count: 0 };
  await Promise.all(
    [0, 1, 2, 3].map(async (writer) => {
      const array = await openArray(writerStore(conflicts));
      // Element by element, so the writers' read-modify-writes of shared shards interleave.
      for (let i = BOUNDS[writer]; i < BOUNDS[writer + 1]; i++) {
        await array.set([slice(i, i + 1)], {
          data: new Int32Array([valueAt(writer, i)]),
          shape: [1],
        });
      }
    }),
  );
  const { data } = await (await openArray(setup)).get();
  const expected = Array.from({ length: 64 }, (_, i) =>
    valueAt(
      BOUNDS.findIndex((b, w) => i >= b && i < BOUNDS[w + 1]),
      i,
    ),
  );
  expect(Array.from(data as Int32Array)).toEqual(expected);
  console.log(`[many writers] ${conflicts.count} conditional writes refused and retried`);
});

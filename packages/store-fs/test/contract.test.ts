import { rm } from "node:fs/promises";
import * as path from "node:path";
import { describeStoreContract, fillStore } from "@z/store-core/testing";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterAll } from "vitest";

const sandbox = tempDir("z-store-fs-contract-");
afterAll(() => sandbox.remove());

let count = 0;
/** A root that does not exist yet, two levels down: the first write creates it. */
const freshRoot = () => path.join(sandbox.dir, `store-${count++}`, "data.zarr");
const dispose = (store: FsStore) => rm(path.dirname(store.root), { recursive: true, force: true });

describeStoreContract("FsStore", (entries) => fillStore(new FsStore(freshRoot()), entries), {
  freshReadBuffers: true,
  dispose,
});

describeStoreContract(
  "FsStore without fsync",
  (entries) => fillStore(new FsStore(freshRoot(), { fsync: false }), entries),
  { freshReadBuffers: true, dispose, propertyRuns: 20 },
);

describeStoreContract(
  "FsStore, read-only",
  async (entries) => {
    const root = freshRoot();
    await fillStore(new FsStore(root), entries);
    return new FsStore(root, { readOnly: true });
  },
  { writable: "read-only", freshReadBuffers: true, dispose },
);

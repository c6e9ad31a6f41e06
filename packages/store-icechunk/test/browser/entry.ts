// Runs in the browser: opens an Icechunk repository over HTTP and reads an array at a tag,
// its history and the branch list, with the browser's fetch and zstd in WebAssembly.
import { openRepository } from "@z/store-icechunk";
import { HttpStore, openArray } from "@z/zarr";

(window as unknown as { __run: (url: string) => Promise<unknown> }).__run = async (url) => {
  const repo = await openRepository(new HttpStore(url));
  const session = await repo.readonlySession({ tag: "v2" });
  const arr = await openArray(session.store, { path: "numeric/float64" });
  const sharded = await openArray(session.store, { path: "sharded" });
  return {
    branches: await repo.listBranches(),
    history: (await repo.ancestry({ branch: "main" })).map((s) => s.id),
    values: Array.from((await arr.get(null)).data as Float64Array),
    corner: Array.from((await sharded.get([0, null])).data as Int32Array).slice(0, 4),
  };
};

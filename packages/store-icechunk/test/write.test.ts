import { MapStore } from "@z/store-core";
import {
  createRepository,
  IcechunkConflictError,
  IcechunkRefNotFoundError,
  IcechunkSessionError,
  openRepository,
} from "@z/store-icechunk";
import { createArray, createGroup, openArray, openGroup, slice } from "@z/zarr";
import { beforeAll, describe, expect, it } from "vitest";
import { icechunk, mapStorage, officialZarrStore } from "./official.js";
import {
  type CommitLabel,
  NUMERIC_DTYPES,
  shardedAt,
  valueAt,
  versionAt,
  writeArrays,
  writeSharded,
} from "./official-repo.js";

type Any = any;

/** The repository this package writes: three commits on main and dev, tags v1 and v2. */
async function writeOurs() {
  const files = new Map<string, Uint8Array>();
  const repo = await createRepository(new MapStore(files));
  let session = await repo.writableSession({ branch: "main" });
  await createGroup(session.store, { attributes: { title: "ours", commit: 1 } });
  await createGroup(session.store, { path: "numeric" });
  await writeArrays(session.store, 1, 0, 300, true);
  await writeSharded(session.store, "c1", [0, 64], true);
  const c1 = await session.commit("first data", { metadata: { author: "z", n: 1 } });
  await repo.createTag("v1", c1);
  await repo.createBranch("dev", c1);

  session = await repo.writableSession({ branch: "main" });
  await writeArrays(session.store, 2, 0, 100, false);
  await writeSharded(session.store, "c2", [0, 16], false);
  await createGroup(session.store, { path: "extra/sub", attributes: { nested: true } });
  const c2 = await session.commit("second data");
  await repo.createTag("v2", c2);

  session = await repo.writableSession({ branch: "dev" });
  await writeArrays(session.store, 3, 200, 300, false);
  const c3 = await session.commit("dev data");
  return { files, snapshots: { c1, c2, c3 } as Record<CommitLabel, string> };
}

async function checkValues(store: Any, label: CommitLabel) {
  for (const dtype of [...NUMERIC_DTYPES, "string"]) {
    const arr = await openArray(store, { path: `numeric/${dtype}` });
    const got = await arr.get(null);
    const values = Array.from(got.data as ArrayLike<unknown>, (x) =>
      typeof x === "boolean" ? Number(x) : x,
    );
    const expected: unknown[] = [];
    for (let i = 0; i < 300; i++) {
      const v = valueAt(dtype, i, versionAt(label, i));
      if (dtype.startsWith("complex")) expected.push(v, -(v as number));
      else expected.push(dtype === "bool" ? Number(v) : v);
    }
    expect(values, `${dtype} at ${label}`).toEqual(expected);
  }
  const sharded = await openArray(store, { path: "sharded" });
  const data = (await sharded.get(null)).data as Int32Array;
  const want = Array.from({ length: 64 * 64 }, (_, k) =>
    shardedAt(label, Math.floor(k / 64), k % 64),
  );
  expect(Array.from(data), `sharded at ${label}`).toEqual(want);
}

/** The official session's store for reading only (no set/delete, so readers do not wrap writes). */
function officialReader(store: Any) {
  const { get, list, listPrefix, listDir } = officialZarrStore(store);
  return { get, list, listPrefix, listDir };
}

describe("a repository this package writes", () => {
  let written: Awaited<ReturnType<typeof writeOurs>>;
  beforeAll(async () => {
    written = await writeOurs();
  }, 120_000);

  it("reads back with this package: values, history, tags", async () => {
    const repo = await openRepository(written.files);
    expect(await repo.listBranches()).toEqual(["dev", "main"]);
    expect(await repo.listTags()).toEqual(["v1", "v2"]);
    const { c1, c2, c3 } = written.snapshots;
    expect((await repo.ancestry({ branch: "main" })).map((s) => s.id)).toEqual([
      c2,
      c1,
      "1CECHNKREP0F1RSTCMT0",
    ]);
    expect((await repo.ancestry({ branch: "dev" })).map((s) => s.id).slice(0, 2)).toEqual([c3, c1]);
    expect((await repo.snapshotInfo(c1)).metadata).toEqual({ author: "z", n: 1 });
    for (const [label, target] of [
      ["c1", { tag: "v1" }],
      ["c2", { branch: "main" }],
      ["c3", { branch: "dev" }],
    ] as const) {
      const session = await repo.readonlySession(target);
      await checkValues(session.store, label);
    }
    const changes = await repo.changes(c2);
    expect(changes.newGroups).toEqual(
      ["/extra", "/extra/sub"].filter((p) => changes.newGroups.includes(p)),
    );
    expect(changes.updatedChunks["/sharded"]).toBeDefined();
  });

  it("reads with the official implementation: values, history, tags", async () => {
    const ic = icechunk();
    const repo = await ic.Repository.open(mapStorage(written.files));
    expect([...(await repo.listBranches())].sort()).toEqual(["dev", "main"]);
    expect([...(await repo.listTags())].sort()).toEqual(["v1", "v2"]);
    const { c1, c2, c3 } = written.snapshots;
    const main = await repo.ancestry({ branch: "main" });
    expect(main.map((s: Any) => s.id)).toEqual([c2, c1, "1CECHNKREP0F1RSTCMT0"]);
    expect(main.map((s: Any) => s.message)).toEqual([
      "second data",
      "first data",
      "Repository initialized",
    ]);
    const dev = await repo.ancestry({ branch: "dev" });
    expect(dev.map((s: Any) => s.id)).toEqual([c3, c1, "1CECHNKREP0F1RSTCMT0"]);
    for (const [label, target] of [
      ["c1", { tag: "v1" }],
      ["c2", { branch: "main" }],
      ["c3", { branch: "dev" }],
    ] as const) {
      const session = await repo.readonlySession(target);
      await checkValues(officialReader(session.store), label);
    }
    const root = await openGroup(
      officialReader((await repo.readonlySession({ branch: "main" })).store),
    );
    expect(root.attrs).toMatchObject({ title: "ours" });
  });

  it("takes a commit of the official implementation on top, which this package then reads", async () => {
    const files = new Map(written.files);
    const ic = icechunk();
    const official = await ic.Repository.open(mapStorage(files));
    const session = await official.writableSession("main");
    const store = officialZarrStore(session.store);
    const arr = await openArray(store, { path: "numeric/int32" });
    await arr.set([slice(0, 2)], { data: Int32Array.of(41, 42), shape: [2], stride: [1] } as never);
    const c4: string = await session.commit("official on top");
    await official.createTag("v4", c4);
    expect((await official.lookupSnapshot(written.snapshots.c1)).message).toBe("first data");
    const diff = await official.diff({
      fromSnapshotId: written.snapshots.c1,
      toSnapshotId: written.snapshots.c2,
    });
    expect([...diff.newGroups].sort()).toEqual(["/extra", "/extra/sub"]);
    const repo = await openRepository(files);
    expect((await repo.ancestry({ branch: "main" })).map((s) => s.id).slice(0, 2)).toEqual([
      c4,
      written.snapshots.c2,
    ]);
    const ours = await openArray((await repo.readonlySession({ branch: "main" })).store, {
      path: "numeric/int32",
    });
    expect(Array.from((await ours.get([slice(0, 3)])).data as Int32Array)).toEqual([
      41,
      42,
      valueAt("int32", 2, 2),
    ]);
    expect(await repo.lookupTag("v4")).toBe(c4);
    // Ref updates of this package on top of the official one's, and the official view of them.
    await repo.deleteTag("v1");
    await repo.resetBranch("dev", written.snapshots.c1, written.snapshots.c3);
    const reopened = await ic.Repository.open(mapStorage(files));
    expect([...(await reopened.listTags())].sort()).toEqual(["v2", "v4"]);
    expect(await reopened.lookupBranch("dev")).toBe(written.snapshots.c1);
    await expect(reopened.createTag("v1", c4)).rejects.toThrow();
  });
});

describe("writing refuses what it cannot do, with typed errors", () => {
  it("refuses tags, unknown branches, a second commit and a taken tag", async () => {
    const repo = await createRepository(new MapStore());
    await expect(repo.writableSession({ tag: "v1" } as never)).rejects.toThrow(
      IcechunkSessionError,
    );
    await expect(repo.writableSession({ branch: "nope" })).rejects.toThrow(
      IcechunkRefNotFoundError,
    );
    const session = await repo.writableSession({ branch: "main" });
    await expect(session.commit("nothing")).rejects.toThrow(IcechunkSessionError);
    await createGroup(session.store);
    await expect(session.store.set("x/c/0", Uint8Array.of(1))).rejects.toThrow(
      IcechunkSessionError,
    );
    const id = await session.commit("root");
    await expect(session.store.set("zarr.json", new Uint8Array())).rejects.toThrow(
      IcechunkSessionError,
    );
    await expect(session.commit("again")).rejects.toThrow(IcechunkSessionError);
    await repo.createTag("v1", id);
    await expect(repo.createTag("v1", id)).rejects.toThrow(IcechunkConflictError);
    await expect(repo.createBranch("main", id)).rejects.toThrow(IcechunkConflictError);
    await expect(repo.createBranch("bad name/x", id)).rejects.toThrow(IcechunkRefNotFoundError);
    await expect(createRepository(repo.store as MapStore)).rejects.toThrow(IcechunkSessionError);
  });

  it("refuses a stale session's commit with IcechunkConflictError naming branch and snapshots", async () => {
    const repo = await createRepository(new MapStore());
    const a = await repo.writableSession({ branch: "main" });
    const b = await repo.writableSession({ branch: "main" });
    await createGroup(a.store, { attributes: { who: "a" } });
    await createGroup(b.store, { attributes: { who: "b" } });
    const landed = await a.commit("a");
    const error = await b.commit("b").catch((e) => e);
    expect(error).toBeInstanceOf(IcechunkConflictError);
    expect(error.ref).toBe("main");
    expect(error.expected).toBe("1CECHNKREP0F1RSTCMT0");
    expect(error.actual).toBe(landed);
    // Both wrote the root group: a rebase is refused, naming it.
    const rebased = await b.commit("b", { rebase: true }).catch((e) => e);
    expect(rebased).toBeInstanceOf(IcechunkConflictError);
    expect(rebased.paths).toEqual(["/"]);
  });

  it("rebases disjoint changes onto the new tip", async () => {
    const repo = await createRepository(new MapStore());
    const s0 = await repo.writableSession({ branch: "main" });
    await createGroup(s0.store);
    await s0.commit("root");
    const a = await repo.writableSession({ branch: "main" });
    const b = await repo.writableSession({ branch: "main" });
    const x = await createArray(a.store, { path: "x", shape: [4], chunks: [2], dtype: "uint8" });
    await x.set(null, { data: Uint8Array.of(1, 2, 3, 4), shape: [4], stride: [1] } as never);
    const y = await createArray(b.store, { path: "y", shape: [2], chunks: [2], dtype: "uint8" });
    await y.set(null, { data: Uint8Array.of(5, 6), shape: [2], stride: [1] } as never);
    const first = await a.commit("x");
    const second = await b.commit("y", { rebase: true });
    const history = await repo.ancestry({ branch: "main" });
    expect(history.map((s) => s.id).slice(0, 2)).toEqual([second, first]);
    const store = (await repo.readonlySession({ branch: "main" })).store;
    expect(
      Array.from((await (await openArray(store, { path: "x" })).get(null)).data as Uint8Array),
    ).toEqual([1, 2, 3, 4]);
    expect(
      Array.from((await (await openArray(store, { path: "y" })).get(null)).data as Uint8Array),
    ).toEqual([5, 6]);
  });

  it("refuses to rebase chunks onto an array whose metadata a landed commit changed", async () => {
    const repo = await createRepository(new MapStore());
    const s0 = await repo.writableSession({ branch: "main" });
    await createGroup(s0.store);
    await createArray(s0.store, { path: "x", shape: [4], chunks: [2], dtype: "uint8" });
    await s0.commit("x");
    const a = await repo.writableSession({ branch: "main" });
    const b = await repo.writableSession({ branch: "main" });
    const meta = JSON.parse(new TextDecoder().decode(await a.store.get("x/zarr.json")));
    meta.attributes = { changed: true };
    await a.store.set("x/zarr.json", new TextEncoder().encode(JSON.stringify(meta)));
    await a.commit("attrs");
    const x = await openArray(b.store, { path: "x" });
    await x.set(null, { data: Uint8Array.of(1, 2, 3, 4), shape: [4], stride: [1] } as never);
    const error = await b.commit("chunks", { rebase: true }).catch((e) => e);
    expect(error).toBeInstanceOf(IcechunkConflictError);
    expect(error.paths).toEqual(["/x"]);
  });
});

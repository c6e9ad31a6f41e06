import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UnsupportedOperationError } from "@z/store-core";
import {
  IcechunkRefNotFoundError,
  IcechunkRepositoryNotFoundError,
  IcechunkSnapshotNotFoundError,
  openRepository,
} from "@z/store-icechunk";
import { startTestHttpServer, tempDir } from "@z/test-utils";
import { FsStore, HttpStore, openArray } from "@z/zarr";
import { beforeAll, describe, expect, it } from "vitest";
import { type OfficialRepo, valueAt, versionAt, writeOfficialRepository } from "./official-repo.js";

function writeToFolder(files: Map<string, Uint8Array>, dir: string): void {
  for (const [key, bytes] of files) {
    mkdirSync(path.dirname(path.join(dir, key)), { recursive: true });
    writeFileSync(path.join(dir, key), bytes);
  }
}

describe.each([1, 2] as const)("a spec version %i repository", (specVersion) => {
  let written: OfficialRepo;
  beforeAll(async () => {
    written = await writeOfficialRepository(specVersion);
  }, 120_000);

  it("reads from a folder (FsStore) and over HTTP (HttpStore)", async () => {
    const sandbox = tempDir("z-icechunk-stores-");
    writeToFolder(written.files, sandbox.dir);
    const server = await startTestHttpServer({ root: sandbox.dir });
    try {
      for (const store of [new FsStore(sandbox.dir), new HttpStore(server.url)]) {
        const repo = await openRepository(store);
        const session = await repo.readonlySession({ tag: "v2" });
        expect(session.snapshotId).toBe(written.snapshots.c2);
        const arr = await openArray(session.store, { path: "numeric/float64" });
        const got = Array.from((await arr.get(null)).data as Float64Array);
        expect(got).toEqual(
          Array.from({ length: 300 }, (_, i) => valueAt("float64", i, versionAt("c2", i))),
        );
        // Spec version 1 lists refs through the store; HTTP cannot list, the folder can.
        if (specVersion === 2 || store instanceof FsStore)
          expect(await repo.listTags()).toEqual(["v1", "v2"]);
        else await expect(repo.listTags()).rejects.toThrow(UnsupportedOperationError);
      }
    } finally {
      await server.stop();
    }
  });

  it("travels in time along a branch", async () => {
    const repo = await openRepository(written.files);
    const history = await repo.ancestry({ branch: "main" });
    expect(history.map((s) => s.id)).toEqual([
      written.snapshots.c2,
      written.snapshots.c1,
      history[2].id,
    ]);
    const atC1 = await repo.readonlySession({ branch: "main", asOf: history[1].flushedAt });
    expect(atC1.snapshotId).toBe(written.snapshots.c1);
    const justBeforeC2 = new Date(history[0].flushedAt.getTime() - 1);
    expect((await repo.readonlySession({ branch: "main", asOf: justBeforeC2 })).snapshotId).toBe(
      history[1].flushedAt <= justBeforeC2 ? written.snapshots.c1 : history[2].id,
    );
    await expect(repo.readonlySession({ branch: "main", asOf: new Date(0) })).rejects.toThrow(
      IcechunkSnapshotNotFoundError,
    );
  });

  it("names a missing branch, a deleted tag and an unknown snapshot", async () => {
    const repo = await openRepository(written.files);
    await expect(repo.readonlySession({ branch: "nope" })).rejects.toThrow(
      IcechunkRefNotFoundError,
    );
    await expect(repo.readonlySession({ branch: "nope" })).rejects.toThrow(
      /branch "nope" does not exist/,
    );
    await expect(repo.readonlySession({ tag: "gone" })).rejects.toThrow(
      /tag "gone" does not exist: it was deleted/,
    );
    await expect(repo.readonlySession({ tag: "a/b" })).rejects.toThrow(IcechunkRefNotFoundError);
    await expect(repo.readonlySession({ snapshotId: "AAAAAAAAAAAAAAAAAAAA" })).rejects.toThrow(
      IcechunkSnapshotNotFoundError,
    );
    await expect(repo.readonlySession({ snapshotId: "not an id" })).rejects.toThrow(
      /not a 20-character base 32 snapshot id/,
    );
  });

  it("lists a snapshot's keys and reads missing chunks as missing", async () => {
    const session = await (await openRepository(written.files)).readonlySession({ branch: "main" });
    const top = await session.store.listDir("");
    expect(top.keys).toEqual(["zarr.json"]);
    expect(top.prefixes).toEqual(["extra/", "numeric/", "sharded/"]);
    const chunks = await session.store.listDir("numeric/float64/c/");
    expect(chunks.keys).toEqual([
      "numeric/float64/c/0",
      "numeric/float64/c/1",
      "numeric/float64/c/2",
    ]);
    expect(await session.store.get("numeric/float64/c/3")).toBeUndefined();
    expect(await session.store.get("numeric/float64/c/0/0")).toBeUndefined();
    expect(await session.store.get("nothing/zarr.json")).toBeUndefined();
    const part = await session.store.get("numeric/float64/c/1", {
      range: { offset: 2, length: 5 },
    });
    expect(part).toEqual((await session.store.get("numeric/float64/c/1"))?.subarray(2, 7));
  });
});

it("says when a store holds no repository", async () => {
  await expect(openRepository(new Map())).rejects.toThrow(IcechunkRepositoryNotFoundError);
});

import { spawn } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createRepository,
  type ForkResult,
  IcechunkConflictError,
  IcechunkSessionError,
  openRepository,
} from "@z/store-icechunk";
import { tempDir } from "@z/test-utils";
import { createArray, createGroup, openArray } from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";
import { icechunk, mapStorage, officialZarrStore } from "./official.js";
import { storeOf } from "./processes/committer.js";
import { FORK_ROWS, forkValue } from "./processes/fork-writer.js";

/*
 * Distributed writes: a session forks, node processes write disjoint shard-aligned bands of one
 * sharded array from the fork piece, and the session merges their results into one commit.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const runTs = path.join(here, "../../array/test/processes/run-ts.mjs");
const FORKS = 4;
const sandbox = tempDir("z-icechunk-forks-");
afterAll(() => sandbox.remove());

function runFork(spec: string, piece: string, index: number): Promise<ForkResult> {
  const child = spawn(
    process.execPath,
    [runTs, path.join(here, "processes/fork-writer.ts"), spec, piece, String(index)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let text = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    text += chunk;
  });
  return new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(text.split("\n").filter(Boolean).at(-1) as string))
        : reject(new Error(`fork ${index} exited with ${code}`)),
    ),
  );
}

/** Every file under a folder, by its path relative to it, for the official implementation. */
function filesOf(root: string, dir = root, out = new Map<string, Uint8Array>()) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) filesOf(root, full, out);
    else if (!name.startsWith(".")) out.set(path.relative(root, full), readFileSync(full));
  }
  return out;
}

describe("fork and merge", () => {
  it(`${FORKS} processes write disjoint shard bands; one commit holds all; the official implementation reads it`, async () => {
    const spec = { kind: "fs" as const, root: path.join(sandbox.dir, "forks.icechunk") };
    const repo = await createRepository(storeOf(spec));
    const session = await repo.writableSession({ branch: "main" });
    await createGroup(session.store);
    await createArray(session.store, {
      path: "big",
      shape: [FORKS * FORK_ROWS, 64],
      shards: [FORK_ROWS, 64],
      chunks: [8, 8],
      dtype: "int32",
    } as Parameters<typeof createArray>[1]);
    const piece = JSON.stringify(session.fork());
    const results = await Promise.all(
      Array.from({ length: FORKS }, (_, i) => runFork(JSON.stringify(spec), piece, i)),
    );
    session.merge(...results);
    const id = await session.commit("all bands");

    const want = Array.from({ length: FORKS * FORK_ROWS * 64 }, (_, k) =>
      forkValue(Math.floor(k / 64), k % 64),
    );
    const ours = await openRepository(storeOf(spec));
    expect((await ours.ancestry({ branch: "main" })).map((s) => s.id)[0]).toBe(id);
    const read = await openArray((await ours.readonlySession({ branch: "main" })).store, {
      path: "big",
    });
    expect(Array.from((await read.get(null)).data as Int32Array)).toEqual(want);

    const official = await icechunk().Repository.open(mapStorage(filesOf(spec.root)));
    const { get, list, listPrefix, listDir } = officialZarrStore(
      (await official.readonlySession({ branch: "main" })).store,
    );
    const theirs = await openArray({ get, list, listPrefix, listDir } as never, { path: "big" });
    expect(Array.from((await theirs.get(null)).data as Int32Array)).toEqual(want);
  }, 180_000);

  it("refuses overlapping results, results of another snapshot, and commits of a fork", async () => {
    const repo = await createRepository(
      storeOf({ kind: "fs", root: path.join(sandbox.dir, "bad") }),
    );
    const session = await repo.writableSession({ branch: "main" });
    await createGroup(session.store);
    await createArray(session.store, { path: "a", shape: [4], chunks: [2], dtype: "uint8" });
    const piece = session.fork();
    const results: ForkResult[] = [];
    for (let i = 0; i < 2; i++) {
      const fork = await repo.sessionFromFork(JSON.parse(JSON.stringify(piece)));
      const arr = await openArray(fork.store, { path: "a" });
      await arr.set(null, { data: Uint8Array.of(i, i, i, i), shape: [4], stride: [1] } as never);
      await expect(fork.commit("no")).rejects.toThrow(IcechunkSessionError);
      results.push(fork.done());
    }
    const overlap = (() => {
      try {
        session.merge(...results);
      } catch (e) {
        return e as IcechunkConflictError;
      }
    })();
    expect(overlap).toBeInstanceOf(IcechunkConflictError);
    expect(overlap?.paths).toEqual(["/a chunk 0", "/a chunk 1"]);
    expect(() => session.merge({ ...results[0], snapshotId: "1CECHNKREP0F1RSTCMT0x" })).toThrow(
      IcechunkConflictError,
    );
    await expect(repo.sessionFromFork({ type: "nope" } as never)).rejects.toThrow(
      IcechunkSessionError,
    );
    session.merge(results[1]);
    await session.commit("one fork");
    const arr = await openArray((await repo.readonlySession({ branch: "main" })).store, {
      path: "a",
    });
    expect(Array.from((await arr.get(null)).data as Uint8Array)).toEqual([1, 1, 1, 1]);
  });
});

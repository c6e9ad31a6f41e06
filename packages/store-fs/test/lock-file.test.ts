import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import * as path from "node:path";
import { collectKeys } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockPathOf } from "../src/lock-file.js";

let sandbox: { dir: string; remove: () => void };
beforeEach(() => {
  sandbox = tempDir("z-store-fs-lock-");
});
afterEach(() => sandbox.remove());

/** Leaves a lock file for `key` as a writer named `holder` would. */
function leaveLock(root: string, key: string, holder: string): string {
  const lock = lockPathOf(path.join(root, ...key.split("/")));
  mkdirSync(path.dirname(lock), { recursive: true });
  writeFileSync(lock, `${holder}\n`);
  return lock;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return Number(child.stdout);
}

/** A conditional write (which takes the key's lock): creates the key. */
const create = { ifNoneMatch: "*" } as const;

describe("FsStore lock files", () => {
  it("a lock left by a dead process of this machine is broken at once", async () => {
    const store = new FsStore(sandbox.dir, { lockStaleMs: 3_600_000 });
    const lock = leaveLock(sandbox.dir, "a/c/0", `${hostname()} ${deadPid()}`);
    await store.set("a/c/0", Uint8Array.of(1), create);
    expect(await store.get("a/c/0")).toEqual(Uint8Array.of(1));
    expect(existsSync(lock)).toBe(false);
  });

  it("a lock of another machine is broken once older than lockStaleMs", async () => {
    const store = new FsStore(sandbox.dir, { lockStaleMs: 60_000 });
    const lock = leaveLock(sandbox.dir, "k", "another-host 1");
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    await store.set("k", Uint8Array.of(2), create);
    expect(await store.get("k")).toEqual(Uint8Array.of(2));
  });

  it("a live lock makes a conditional write wait until it is released", async () => {
    const store = new FsStore(sandbox.dir);
    // Held by this very process (alive, so never broken before lockStaleMs).
    const lock = leaveLock(sandbox.dir, "k", `${hostname()} ${process.pid}`);
    const settled: string[] = [];
    const writes = [
      store.set("k", Uint8Array.of(3), create).then(() => settled.push("set")),
      store.setIfNotExists("k2", Uint8Array.of(3)).then(() => settled.push("k2")),
    ];
    // The other key's lock is free: that write goes through meanwhile.
    await writes[1];
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual(["k2"]);
    expect(await store.get("k")).toBeUndefined();
    unlinkSync(lock);
    await writes[0];
    expect(await store.get("k")).toEqual(Uint8Array.of(3));
  });

  it("a set or delete without a condition takes no lock: it lands while the lock is held", async () => {
    const store = new FsStore(sandbox.dir);
    await store.set("a/k", Uint8Array.of(1));
    const lock = leaveLock(sandbox.dir, "a/k", `${hostname()} ${process.pid}`);
    await store.set("a/k", Uint8Array.of(2));
    expect(await store.get("a/k")).toEqual(Uint8Array.of(2));
    await store.delete("a/k");
    expect(await store.get("a/k")).toBeUndefined();
    // The held lock is left alone (a conditional writer of another process may own it).
    expect(existsSync(lock)).toBe(true);
    unlinkSync(lock);
  });

  it("lock files are never listed, never left behind, and folders are still pruned", async () => {
    const store = new FsStore(sandbox.dir);
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const key = `a/b/${i % 4}`;
        const current = await store.getVersioned(key);
        // Conflicts are expected (same keys at once); the locks are what this is about.
        await store
          .set(key, Uint8Array.of(i), current ? { ifMatch: current.version } : create)
          .catch(() => {});
      }),
    );
    expect(await collectKeys(store.list())).toEqual(["a/b/0", "a/b/1", "a/b/2", "a/b/3"]);
    expect(readdirSync(path.join(sandbox.dir, "a", "b")).sort()).toEqual(["0", "1", "2", "3"]);
    await Promise.all(
      [0, 1, 2, 3].map(async (i) => {
        const { version } = (await store.getVersioned(`a/b/${i}`))!;
        await store.delete(`a/b/${i}`, { ifMatch: version });
      }),
    );
    expect(readdirSync(sandbox.dir)).toEqual([]);
  });

  it("a delete of a key in a missing folder creates nothing", async () => {
    const store = new FsStore(sandbox.dir);
    await store.delete("x/y/z");
    expect(readdirSync(sandbox.dir)).toEqual([]);
  });

  it("lockFiles: false writes without locks and refuses conditional writes", async () => {
    const store = new FsStore(sandbox.dir, { lockFiles: false });
    expect(store.conditionalWrites).toBe(false);
    await store.set("k", Uint8Array.of(1));
    await expect(store.set("k", Uint8Array.of(2), { ifNoneMatch: "*" })).rejects.toThrow(
      /lockFiles: false/,
    );
    expect(await store.get("k")).toEqual(Uint8Array.of(1));
  });
});

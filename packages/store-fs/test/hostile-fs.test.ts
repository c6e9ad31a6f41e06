import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import * as path from "node:path";
import { collectKeys, isZarrError } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { treeOf } from "./support.js";

let sandbox: { dir: string; remove: () => void };
let root: string;
let outside: string;
beforeEach(() => {
  sandbox = tempDir("z-store-fs-hostile-");
  root = path.join(sandbox.dir, "store.zarr");
  outside = path.join(sandbox.dir, "outside");
  mkdirSync(root);
  mkdirSync(outside);
});
afterEach(() => sandbox.remove());

const posix = it.skipIf(process.platform === "win32");
const bytes = (...values: number[]) => Uint8Array.from(values);

/** Runs `call` and returns what it threw; fails the test if it did not throw. */
async function thrown(
  call: () => Promise<unknown>,
  what = "",
): Promise<Error & Record<string, unknown>> {
  let result: unknown;
  try {
    result = await call();
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  return expect.fail(`${what}: expected a rejection, got ${String(result).slice(0, 100)}`);
}

/** Every operation of the store on `key` (and on its folder as a prefix). */
function everyOperation(store: FsStore, key: string): [string, () => Promise<unknown>][] {
  return [
    ["get", () => store.get(key)],
    ["get range", () => store.get(key, { range: { offset: 1, length: 2 } })],
    ["getRanges", () => store.getRanges(key, [{ suffix: 1 }])],
    ["getInto", () => store.getInto(key, new Uint8Array(4))],
    ["has", () => store.has(key)],
    ["set", () => store.set(key, bytes(1))],
    ["setIfNotExists", () => store.setIfNotExists(key, bytes(1))],
    ["delete", () => store.delete(key)],
    ["deletePrefix", () => store.deletePrefix(`${key}/`)],
    ["listPrefix", () => collectKeys(store.listPrefix(`${key}/`))],
    ["listDir", () => store.listDir(`${key}/`)],
  ];
}

describe("FsStore: names the file system cannot hold are InvalidKeyError", () => {
  const cases: [string, string, boolean][] = [
    // [what, key, whether reads reach the long name: below a missing folder, a key is missing]
    ["a 256-character name", `arr/${"a".repeat(256)}`, true],
    ["a 4,096-character name", `arr/${"b".repeat(4096)}`, true],
    ["a 256-byte name of 2-byte characters", `arr/${"é".repeat(128)}`, true],
    ["a 2,100-level path", `arr/${Array.from({ length: 2100 }, () => "d").join("/")}`, false],
  ];
  // Reads, lists and deletes of what cannot exist: missing, nothing to delete.
  const reads = new Set([
    "get",
    "get range",
    "getRanges",
    "getInto",
    "has",
    "listPrefix",
    "listDir",
  ]);
  reads.add("delete").add("deletePrefix");
  for (const [what, key, readsReachName] of cases) {
    it(`${what}: every operation`, async () => {
      const store = new FsStore(root);
      await store.set("arr/zarr.json", bytes(1));
      const before = treeOf(sandbox.dir);
      for (const [operation, call] of everyOperation(store, key)) {
        if (reads.has(operation) && !readsReachName) {
          // The first missing folder ends the lookup: nothing there, as for any missing key.
          expect([undefined, false, []]).toContainEqual(
            await call().then((r) => (Array.isArray(r) || r === undefined || r === false ? r : [])),
          );
          continue;
        }
        const error = await thrown(call, operation);
        expect(isZarrError(error), `${operation}: ${String(error).slice(0, 200)}`).toBe(true);
        expect(error.name, `${operation}: ${error.message.slice(0, 200)}`).toBe("InvalidKeyError");
        expect([key, `${key}/`].includes(error.key as string), operation).toBe(true);
        expect(error.message).toContain("ENAMETOOLONG");
      }
      expect(treeOf(sandbox.dir)).toEqual(before);
    });
  }
});

describe("FsStore: I/O failures are FsError with key, path and cause", () => {
  posix("a chunk that is a symlink loop", async () => {
    const store = new FsStore(root);
    await store.set("arr/zarr.json", bytes(1));
    symlinkSync("0", path.join(root, "arr", "0"));
    symlinkSync("loop", path.join(root, "arr", "loop"));
    for (const key of ["arr/0", "arr/loop"]) {
      for (const call of [
        () => store.get(key),
        () => store.get(key, { range: { suffix: 2 } }),
        () => store.has(key),
      ]) {
        const error = await thrown(call);
        expect(error).toMatchObject({ name: "FsError", key, code: "ELOOP", action: "read" });
        expect(error.path).toBe(path.join(root, ...key.split("/")));
        expect(error.cause).toMatchObject({ code: "ELOOP" });
        expect(error.message).toContain("symlink loop");
      }
    }
    // Below a looping link: the path cannot be resolved either.
    expect(await thrown(() => store.get("arr/loop/x"))).toMatchObject({ name: "FsError" });
    expect(await thrown(() => store.set("arr/loop/x", bytes(1)))).toMatchObject({
      name: "FsError",
      code: "ELOOP",
      action: "write",
    });
    // Listings leave the loops out; a write replaces the link; a delete removes it.
    expect(await collectKeys(store.list())).toEqual(["arr/zarr.json"]);
    await store.set("arr/loop", bytes(9));
    expect(await store.get("arr/loop")).toEqual(bytes(9));
    await store.delete("arr/0");
    expect(await collectKeys(store.list())).toEqual(["arr/loop", "arr/zarr.json"]);
  });

  posix(
    "a FIFO where a chunk should be: a typed error at once, the read never blocks",
    async () => {
      const store = new FsStore(root);
      await store.set("arr/zarr.json", bytes(1));
      execFileSync("mkfifo", [path.join(root, "arr", "0")]);
      const signal = AbortSignal.timeout(1500);
      for (const call of [
        () => store.get("arr/0", { signal }),
        () => store.get("arr/0", { signal, range: { offset: 0, length: 4 } }),
        () => store.getRanges("arr/0", [{ suffix: 4 }], { signal }),
        () => store.getInto("arr/0", new Uint8Array(8), { signal }),
      ]) {
        const error = await thrown(call);
        expect(error).toMatchObject({ name: "FsError", key: "arr/0", action: "read" });
        expect(error.message).toContain("FIFO");
      }
      // The reads did not wait for the timeout: it has not fired yet.
      expect(signal.aborted).toBe(false);
      expect(await store.has("arr/0")).toBe(false);
      expect(await collectKeys(store.list())).toEqual(["arr/zarr.json"]);
      // A FIFO behind a symlink is no different.
      symlinkSync("0", path.join(root, "arr", "1"));
      expect(await thrown(() => store.get("arr/1", { signal }))).toMatchObject({ name: "FsError" });
      // Writing the key replaces the FIFO with a regular file.
      await store.set("arr/0", bytes(3));
      expect(await store.get("arr/0")).toEqual(bytes(3));
    },
  );

  posix("a socket or a device where a chunk should be", async () => {
    const store = new FsStore(root);
    await store.set("arr/zarr.json", bytes(1));
    const server: Server = createServer();
    await new Promise<void>((resolve) => server.listen(path.join(root, "arr", "sock"), resolve));
    try {
      symlinkSync("/dev/zero", path.join(root, "arr", "zero"));
      const socket = await thrown(() => store.get("arr/sock"));
      expect(socket).toMatchObject({ name: "FsError", key: "arr/sock", action: "read" });
      // /dev/zero is outside the root: refused before it is opened.
      expect(await thrown(() => store.get("arr/zero"))).toMatchObject({
        name: "OutsideRootError",
      });
      expect(await collectKeys(store.list())).toEqual(["arr/zarr.json"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  posix("a device inside the root (a bind of /dev/null) is an FsError, not a value", async () => {
    // mknod needs privileges; where it is refused, the socket test above covers special files.
    const device = path.join(root, "null");
    try {
      execFileSync("mknod", [device, "c", "1", "3"], { stdio: "ignore" });
    } catch {
      return;
    }
    const store = new FsStore(root);
    expect(await thrown(() => store.get("null"))).toMatchObject({
      name: "FsError",
      message: expect.stringContaining("character device"),
    });
  });

  it("an aborted read rejects with AbortError before touching the disk", async () => {
    const store = new FsStore(root);
    await store.set("k", bytes(1));
    const controller = new AbortController();
    controller.abort();
    await expect(store.get("k", { signal: controller.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
  });
});

describe("FsStore never writes or deletes outside its root", () => {
  posix("a folder symlinked out of the root: writes, deletes and listings refuse it", async () => {
    writeFileSync(path.join(outside, "0"), "outside 0");
    mkdirSync(path.join(outside, "sub"));
    writeFileSync(path.join(outside, "sub", "1"), "outside 1");
    const store = new FsStore(root);
    await store.set("arr/zarr.json", bytes(1));
    symlinkSync(outside, path.join(root, "arr", "c"), "dir");
    const before = treeOf(outside);

    for (const key of ["arr/c/0", "arr/c/new", "arr/c/sub/1", "arr/c/deep/new/key"]) {
      const exists = key === "arr/c/0" || key === "arr/c/sub/1";
      const calls: [string, () => Promise<unknown>][] = [
        ["set", () => store.set(key, bytes(7))],
        ["setIfNotExists", () => store.setIfNotExists(key, bytes(7))],
      ];
      // Deleting below a folder that does not exist deletes nothing, wherever it would be.
      if (key.includes("deep")) await store.delete(key);
      else calls.push(["delete", () => store.delete(key)]);
      if (exists) calls.push(["get", () => store.get(key)], ["has", () => store.has(key)]);
      else {
        // A missing key reads as missing, wherever its path leads.
        expect(await store.get(key)).toBeUndefined();
        expect(await store.has(key)).toBe(false);
      }
      for (const [operation, call] of calls) {
        const error = await thrown(call, `${operation} ${key}`);
        expect(error, key).toMatchObject({ name: "OutsideRootError", key });
        expect(error.realPath).toMatch(new RegExp(`^${outside}`));
      }
    }
    for (const prefix of ["arr/c/sub/", "arr/c/deep/"]) {
      expect(await thrown(() => store.deletePrefix(prefix))).toMatchObject({
        name: "OutsideRootError",
      });
      expect(await collectKeys(store.listPrefix(prefix))).toEqual([]);
      expect(await store.listDir(prefix)).toEqual({ keys: [], prefixes: [] });
    }
    expect(await collectKeys(store.list())).toEqual(["arr/zarr.json"]);
    expect(await store.listDir("arr/")).toEqual({ keys: ["arr/zarr.json"], prefixes: [] });
    expect(treeOf(outside)).toEqual(before);

    // Deleting the prefix of the link removes the link (inside the root), not what it points to.
    await store.deletePrefix("arr/c/");
    await store.deletePrefix("");
    expect(treeOf(outside)).toEqual(before);
    expect(treeOf(root)).toEqual(new Map());
  });

  posix("a store whose root is itself a symlink works as usual", async () => {
    const real = path.join(sandbox.dir, "real-root");
    mkdirSync(real);
    const linked = path.join(sandbox.dir, "linked-root");
    symlinkSync(real, linked, "dir");
    const store = new FsStore(linked);
    await store.set("a/b/c", bytes(1, 2));
    expect(readFileSync(path.join(real, "a", "b", "c"))).toEqual(Buffer.from([1, 2]));
    expect(await collectKeys(store.list())).toEqual(["a/b/c"]);
    await store.delete("a/b/c");
    expect(treeOf(real)).toEqual(new Map());
  });
});

describe("FsStore: writes in a folder it has already written to", () => {
  // After the first write in a folder, the store keeps the folder's path and writes a new
  // temporary file in it without looking it up; where the opened file is really checked.
  it.runIf(process.platform === "linux")(
    "a folder replaced by a link out of the root after a write: the next write is refused, nothing outside changes",
    async () => {
      writeFileSync(path.join(outside, "0"), "outside 0");
      const store = new FsStore(root);
      await store.set("arr/c/0", bytes(1));
      await store.set("arr/c/1", bytes(1)); // through the kept folder
      renameSync(path.join(root, "arr", "c"), path.join(root, "old"));
      symlinkSync(outside, path.join(root, "arr", "c"), "dir");
      const before = treeOf(outside);
      for (const call of [
        () => store.set("arr/c/0", bytes(7)),
        () => store.set("arr/c/new", bytes(7)),
        () => store.set("arr/c/0", bytes(7)), // the kept path was dropped: the full check
        async () => {
          await store.set("arr/d/0", bytes(1)); // a folder kept again, then swapped
          renameSync(path.join(root, "arr", "d"), path.join(root, "old-d"));
          symlinkSync(outside, path.join(root, "arr", "d"), "dir");
          await store.delete("arr/d/0");
        },
      ]) {
        const error = await thrown(call);
        expect(error).toMatchObject({ name: "OutsideRootError", key: expect.any(String) });
      }
      expect(treeOf(outside)).toEqual(before);
    },
  );

  posix("a kept folder removed and made again by another program: writes go on", async () => {
    const store = new FsStore(root);
    await store.set("arr/c/0", bytes(1));
    renameSync(path.join(root, "arr"), path.join(root, "moved"));
    await store.set("arr/c/1", bytes(2));
    expect(await collectKeys(store.list())).toEqual(["arr/c/1", "moved/c/0"]);
    mkdirSync(path.join(root, "shared"));
    renameSync(path.join(root, "arr", "c"), path.join(root, "shared", "c"));
    symlinkSync(path.join(root, "shared", "c"), path.join(root, "arr", "c"), "dir");
    // A link inside the root is followed, as by a store that never saw the folder.
    await store.set("arr/c/2", bytes(3));
    expect(readFileSync(path.join(root, "shared", "c", "2"))).toEqual(Buffer.from([3]));
  });
});

describe("FsStore: reads in a folder it has already read from", () => {
  // After the first read in a folder, the store keeps the folder's real path and opens names in
  // it without following links; these are the cases that shortcut must not let through.
  posix("a link at the name: out of the root refused, inside followed", async () => {
    writeFileSync(path.join(outside, "secret"), "outside");
    const store = new FsStore(root);
    await store.set("arr/c/0", bytes(1, 2));
    await store.set("arr/c/target", bytes(9));
    expect(await store.get("arr/c/0")).toEqual(bytes(1, 2)); // the folder is now known
    symlinkSync(path.join(outside, "secret"), path.join(root, "arr", "c", "out"));
    symlinkSync("target", path.join(root, "arr", "c", "in"));
    for (const call of [
      () => store.get("arr/c/out"),
      () => store.getInto("arr/c/out", new Uint8Array(64)),
      () => store.get("arr/c/out", { range: { suffix: 2 } }),
    ]) {
      const error = await thrown(call);
      expect(error).toMatchObject({ name: "OutsideRootError", key: "arr/c/out" });
    }
    expect(await store.get("arr/c/in")).toEqual(bytes(9));
    const target = new Uint8Array(4);
    expect(await store.getInto("arr/c/in", target)).toBe(1);
    expect(target[0]).toBe(9);
  });

  posix("a folder replaced by a link inside the root: reads follow it", async () => {
    const store = new FsStore(root);
    await store.set("arr/c/0", bytes(1));
    await store.set("shared/0", bytes(5));
    expect(await store.get("arr/c/0")).toEqual(bytes(1));
    renameSync(path.join(root, "arr", "c"), path.join(root, "old"));
    symlinkSync(path.join(root, "shared"), path.join(root, "arr", "c"), "dir");
    expect(await store.get("arr/c/0")).toEqual(bytes(5));
    expect(await store.get("arr/c/missing")).toBeUndefined();
  });

  it.runIf(process.platform === "linux")(
    "a folder replaced by a link out of the root after a read: refused before a byte is read",
    async () => {
      writeFileSync(path.join(outside, "0"), "outside 0");
      const store = new FsStore(root);
      await store.set("arr/c/0", bytes(1));
      expect(await store.get("arr/c/0")).toEqual(bytes(1));
      renameSync(path.join(root, "arr", "c"), path.join(root, "old"));
      symlinkSync(outside, path.join(root, "arr", "c"), "dir");
      for (const call of [
        () => store.get("arr/c/0"),
        () => store.getInto("arr/c/0", new Uint8Array(64)),
        () => store.get("arr/c/0"), // the kept path was dropped: refused by the full check too
      ]) {
        const error = await thrown(call);
        expect(error).toMatchObject({ name: "OutsideRootError", key: "arr/c/0" });
        expect(error.realPath).toMatch(new RegExp(`^${outside}`));
      }
      // A missing key still reads as missing, wherever its folder leads.
      expect(await store.get("arr/c/none")).toBeUndefined();
    },
  );
});

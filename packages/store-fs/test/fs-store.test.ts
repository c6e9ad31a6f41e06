import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { open } from "node:fs/promises";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { collectKeys } from "@z/store-core";
import { expectBytes, HOSTILE_KEYS, HOSTILE_PREFIXES } from "@z/store-core/testing";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { filled, tempFilesUnder, treeOf } from "./support.js";

let sandbox: { dir: string; remove: () => void };
let root: string;
beforeEach(() => {
  sandbox = tempDir("z-store-fs-");
  root = path.join(sandbox.dir, "outer", "store.zarr");
});
afterEach(() => sandbox.remove());

const bytes = (...values: number[]) => Uint8Array.from(values);
const TEMP_NAME = "__z_tmp_0b7e4c0e-6f1a-4d3e-9a53-2f4c1e0d9b77";

describe("FsStore layout", () => {
  it("maps keys to nested paths with '/' as the separator", async () => {
    const store = new FsStore(root);
    await store.set("a/c/0/1", bytes(1, 2));
    await store.set("zarr.json", bytes(3));
    expect(readFileSync(path.join(root, "a", "c", "0", "1"))).toEqual(Buffer.from([1, 2]));
    expect(readFileSync(path.join(root, "zarr.json"))).toEqual(Buffer.from([3]));
    expect(store.pathOf("a/c/0/1")).toBe(path.join(root, "a", "c", "0", "1"));
  });

  it("reads a folder written by another tool, as keys", async () => {
    mkdirSync(path.join(root, "arr", "c", "0"), { recursive: true });
    writeFileSync(path.join(root, "arr", "zarr.json"), "{}");
    writeFileSync(path.join(root, "arr", "c", "0", "0"), Buffer.from([9, 8, 7]));
    const store = new FsStore(root, { readOnly: true });
    expect(await collectKeys(store.list())).toEqual(["arr/c/0/0", "arr/zarr.json"]);
    expect(await store.get("arr/c/0/0", { range: { offset: 1 } })).toEqual(bytes(8, 7));
  });

  it("accepts a file: URL as the root", async () => {
    const store = new FsStore(pathToFileURL(root));
    expect(store.root).toBe(root);
  });

  it("reads a missing root as an empty store", async () => {
    const store = new FsStore(root);
    expect(await store.get("zarr.json")).toBeUndefined();
    expect(await collectKeys(store.list())).toEqual([]);
    expect(await store.listDir("")).toEqual({ keys: [], prefixes: [] });
    await store.delete("x");
    await store.deletePrefix("a/");
    await store.deletePrefix("");
    expect(existsSync(root)).toBe(false);
  });

  it("gives undefined for a folder, and for a path below a value", async () => {
    const store = new FsStore(root);
    await store.set("dir/value", bytes(1));
    expect(await store.get("dir")).toBeUndefined();
    expect(await store.get("dir", { range: { suffix: 1 } })).toBeUndefined();
    expect(await store.getRanges("dir", [{ offset: 0 }])).toBeUndefined();
    expect(await store.has("dir")).toBe(false);
    expect(await store.get("dir/value/below")).toBeUndefined();
  });
});

describe("FsStore ranged reads", () => {
  it("reads only the bytes asked for: ranges of a 5 GiB sparse file cost nothing", async () => {
    const store = new FsStore(root);
    await store.set("huge", bytes(1, 2, 3));
    const size = 5 * 1024 ** 3 + 7; // beyond 32-bit offsets, far beyond what could be read whole
    const handle = await open(path.join(root, "huge"), "r+");
    await handle.truncate(size);
    await handle.write(bytes(0xaa, 0xbb, 0xcc, 0xdd), 0, 4, size - 4);
    await handle.close();
    const started = performance.now();
    expect(await store.get("huge", { range: { suffix: 4 } })).toEqual(
      bytes(0xaa, 0xbb, 0xcc, 0xdd),
    );
    expect(await store.get("huge", { range: { offset: size - 2 } })).toEqual(bytes(0xcc, 0xdd));
    expect(await store.get("huge", { range: { offset: size - 3, length: 100 } })).toEqual(
      bytes(0xbb, 0xcc, 0xdd),
    );
    expect(await store.get("huge", { range: { offset: 1, length: 3 } })).toEqual(bytes(2, 3, 0));
    expect(await store.getRanges("huge", [{ offset: 0, length: 2 }, { suffix: 1 }])).toEqual([
      bytes(1, 2),
      bytes(0xdd),
    ]);
    expect(await store.get("huge", { range: { offset: size + 10 } })).toEqual(new Uint8Array(0));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe("FsStore temporary files", () => {
  it("never lists leftover temporary files, and refuses keys named like them", async () => {
    const store = new FsStore(root);
    await store.set("a/0", bytes(1));
    // What a crash between writing and renaming leaves behind.
    writeFileSync(path.join(root, TEMP_NAME), "partial");
    writeFileSync(path.join(root, "a", TEMP_NAME), "partial");
    mkdirSync(path.join(root, "b"));
    writeFileSync(path.join(root, "b", TEMP_NAME), "partial");
    expect(await collectKeys(store.list())).toEqual(["a/0"]);
    expect(await collectKeys(store.listPrefix("a/"))).toEqual(["a/0"]);
    expect((await store.listDir("a/")).keys).toEqual(["a/0"]);
    expect((await store.listDir("")).keys).toEqual([]);
    for (const key of [TEMP_NAME, `a/${TEMP_NAME}`, `${TEMP_NAME}/x`]) {
      await expect(store.get(key)).rejects.toMatchObject({ name: "InvalidKeyError" });
      await expect(store.set(key, bytes(1))).rejects.toMatchObject({ name: "InvalidKeyError" });
      await expect(store.delete(key)).rejects.toMatchObject({ name: "InvalidKeyError" });
    }
    // Similar names that are not the exact pattern are ordinary keys.
    for (const key of ["__z_tmp_", "__z_tmp_x", `${TEMP_NAME}.json`, "__init__"]) {
      await store.set(key, bytes(7));
      expect(await store.get(key)).toEqual(bytes(7));
    }
    // deletePrefix takes leftovers with the folder.
    await store.deletePrefix("b/");
    expect(existsSync(path.join(root, "b"))).toBe(false);
  });

  it("leaves no temporary file behind after writes, failed writes and aborted writes", async () => {
    const store = new FsStore(root);
    await store.set("x/0", filled(1000, 1));
    await store.setIfNotExists("x/0", filled(10, 2));
    await store.setIfNotExists("x/1", filled(10, 2));
    await expect(store.set("x/0/below", bytes(1))).rejects.toThrow(/is a value/);
    // 64 MiB take tens of milliseconds to write: the abort lands in the middle.
    const controller = new AbortController();
    const write = store.set("x/2", filled(64 * 1024 * 1024, 3), { signal: controller.signal });
    setTimeout(() => controller.abort(), 1);
    await expect(write).rejects.toMatchObject({ name: "AbortError" });
    expect(await store.get("x/2")).toBeUndefined();
    expect(tempFilesUnder(root)).toEqual([]);
  });

  it("does not list files whose names cannot be keys", async () => {
    const store = new FsStore(root);
    await store.set("ok", bytes(1));
    if (process.platform !== "win32") writeFileSync(path.join(root, "back\\slash"), "x");
    expect(await collectKeys(store.list())).toEqual(["ok"]);
  });
});

describe("FsStore deletes", () => {
  it("delete prunes the folders it empties, up to but not including the root", async () => {
    const store = new FsStore(root);
    await store.set("a/b/c/d", bytes(1));
    await store.set("a/keep", bytes(2));
    await store.delete("a/b/c/d");
    expect(existsSync(path.join(root, "a", "b"))).toBe(false);
    expect(existsSync(path.join(root, "a", "keep"))).toBe(true);
    await store.delete("a/keep");
    expect(readdirSync(root)).toEqual([]);
    expect(statSync(root).isDirectory()).toBe(true);
  });

  it("deletePrefix removes a whole subtree and prunes above it; the root survives", async () => {
    const store = new FsStore(root);
    for (const key of ["g/a/c/0", "g/a/c/1", "g/a/zarr.json", "g/zarr.json", "g2/x"]) {
      await store.set(key, bytes(1));
    }
    await store.deletePrefix("g/a/");
    expect(await collectKeys(store.list())).toEqual(["g/zarr.json", "g2/x"]);
    await store.delete("g/zarr.json");
    await store.deletePrefix("g2/");
    expect(readdirSync(root)).toEqual([]);
    await store.set("n/x", bytes(1));
    await store.deletePrefix("");
    expect(readdirSync(root)).toEqual([]);
  });
});

describe("FsStore root folder", () => {
  it("creates the root and its parents on the first write", async () => {
    const store = new FsStore(root);
    expect(existsSync(root)).toBe(false);
    await store.set("zarr.json", bytes(1));
    expect(statSync(root).isDirectory()).toBe(true);
  });

  it("with mkdir: false, refuses to create a missing root but fills an existing one", async () => {
    const store = new FsStore(root, { mkdir: false });
    await expect(store.set("zarr.json", bytes(1))).rejects.toMatchObject({ name: "NotFoundError" });
    expect(existsSync(root)).toBe(false);
    mkdirSync(root, { recursive: true });
    await store.set("a/b/zarr.json", bytes(1));
    expect(await store.get("a/b/zarr.json")).toEqual(bytes(1));
  });
});

describe("FsStore read-only", () => {
  it("refuses writes with ReadOnlyError before touching the disk", async () => {
    const store = new FsStore(root, { readOnly: true });
    const attempts = [
      () => store.set("zarr.json", bytes(1)),
      () => store.setIfNotExists("zarr.json", bytes(1)),
      () => store.delete("zarr.json"),
      () => store.deletePrefix(""),
      () => store.set("../escape", bytes(1)),
    ];
    for (const attempt of attempts)
      await expect(attempt()).rejects.toMatchObject({ name: "ReadOnlyError" });
    expect(existsSync(path.join(sandbox.dir, "outer"))).toBe(false);

    await new FsStore(root).set("a/zarr.json", bytes(5));
    const before = treeOf(sandbox.dir);
    for (const attempt of attempts)
      await expect(attempt()).rejects.toMatchObject({ name: "ReadOnlyError" });
    await expect(store.deletePrefix("a/")).rejects.toMatchObject({ name: "ReadOnlyError" });
    expect(treeOf(sandbox.dir)).toEqual(before);
    expect(await store.get("a/zarr.json")).toEqual(bytes(5));
  });
});

/** Creating symlinks on Windows needs developer mode or admin rights. */
const symlinks = it.skipIf(process.platform === "win32");

describe("FsStore path escapes", () => {
  it("hostile keys and prefixes change nothing anywhere on disk, inside or outside the root", async () => {
    const store = new FsStore(root);
    await store.set("a/zarr.json", bytes(1));
    await store.set("x", bytes(2));
    writeFileSync(path.join(sandbox.dir, "outer", "x"), "outside");
    writeFileSync(path.join(sandbox.dir, "x"), "further outside");
    const before = treeOf(sandbox.dir);
    for (const key of HOSTILE_KEYS) {
      for (const call of [
        () => store.set(key, bytes(0xee)),
        () => store.setIfNotExists(key, bytes(0xee)),
        () => store.delete(key),
        () => store.get(key),
      ]) {
        await expect(call(), JSON.stringify(key)).rejects.toMatchObject({
          name: "InvalidKeyError",
        });
      }
    }
    for (const prefix of HOSTILE_PREFIXES) {
      await expect(store.deletePrefix(prefix), prefix).rejects.toMatchObject({
        name: "InvalidKeyError",
      });
    }
    expect(treeOf(sandbox.dir)).toEqual(before);
  });

  symlinks(
    "a key that is a file symlink out of the root: reads refuse; a write replaces the link, not the file outside",
    async () => {
      const outside = path.join(sandbox.dir, "secret");
      writeFileSync(outside, "keep me");
      const store = new FsStore(root);
      await store.set("placeholder", bytes(0));
      symlinkSync(outside, path.join(root, "link"));
      await expect(store.get("link")).rejects.toMatchObject({
        name: "OutsideRootError",
        key: "link",
        realPath: outside,
      });
      await expect(store.has("link")).rejects.toMatchObject({ name: "OutsideRootError" });
      expect(await collectKeys(store.list())).toEqual(["placeholder"]);
      // A write renames a new file over the link itself, which is inside the root.
      await store.set("link", bytes(1, 2));
      expect(readFileSync(outside, "utf8")).toBe("keep me");
      expect(await store.get("link")).toEqual(bytes(1, 2));
      await store.delete("link");
      expect(readFileSync(outside, "utf8")).toBe("keep me");
    },
  );

  symlinks(
    "follows a symlinked folder inside the root; deletePrefix removes the link, not its target",
    async () => {
      const store = new FsStore(root);
      await store.set("arr/zarr.json", bytes(1));
      await store.set("shared/c/0", bytes(4, 2));
      symlinkSync(path.join(root, "shared"), path.join(root, "arr", "chunks"), "dir");
      expect(await collectKeys(store.list())).toEqual([
        "arr/chunks/c/0",
        "arr/zarr.json",
        "shared/c/0",
      ]);
      expect(await store.listDir("arr/")).toEqual({
        keys: ["arr/zarr.json"],
        prefixes: ["arr/chunks/"],
      });
      expect(await store.get("arr/chunks/c/0")).toEqual(bytes(4, 2));
      await store.set("arr/chunks/c/1", bytes(7));
      expect(readFileSync(path.join(root, "shared", "c", "1"))).toEqual(Buffer.from([7]));
      await store.deletePrefix("arr/chunks/");
      expect(await collectKeys(store.list())).toEqual([
        "arr/zarr.json",
        "shared/c/0",
        "shared/c/1",
      ]);
    },
  );

  symlinks("lists through a symlink cycle without looping", async () => {
    const store = new FsStore(root);
    await store.set("a/b/x", bytes(1));
    symlinkSync(root, path.join(root, "a", "b", "up"), "dir");
    symlinkSync(path.join(root, "a"), path.join(root, "a", "b", "sideways"), "dir");
    symlinkSync(path.join(root, "missing"), path.join(root, "a", "broken"));
    const keys = await collectKeys(store.list());
    expect(keys).toEqual(["a/b/x"]);
    expect((await store.listDir("a/b/")).prefixes).toEqual(["a/b/sideways/", "a/b/up/"]);
    expect(await store.get("a/b/up/a/b/x")).toEqual(bytes(1));
    expect(await store.get("a/broken")).toBeUndefined();
  });
});

describe("FsStore key/folder clashes", () => {
  it("explains a write below a value, or over a folder of keys, and changes nothing", async () => {
    const store = new FsStore(root);
    await store.set("a", bytes(1));
    await store.set("b/c", bytes(2));
    const before = treeOf(root);
    await expect(store.set("a/x", bytes(3))).rejects.toThrow(/"a\/x".*is a value/);
    await expect(store.set("a/x/y", bytes(3))).rejects.toMatchObject({ name: "StoreError" });
    await expect(store.set("b", bytes(3))).rejects.toThrow(/keys under "b\/"/);
    await expect(store.setIfNotExists("b", bytes(3))).resolves.toBe(false);
    expect(treeOf(root)).toEqual(before);
  });
});

describe("FsStore concurrency", () => {
  it("concurrent writes of large values to one key end with one whole value", async () => {
    const store = new FsStore(root);
    const size = 4 * 1024 * 1024 + 3;
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.set("k", filled(size, i + 1))));
    const value = (await store.get("k"))!;
    expectBytes(value, filled(size, value[0]));
    expect(tempFilesUnder(root)).toEqual([]);
  });

  it("writes racing deletes that prune the same folder never fail", async () => {
    const store = new FsStore(root);
    for (let round = 0; round < 100; round++) {
      await store.set("d/e/old", bytes(round));
      await Promise.all([
        store.delete("d/e/old"),
        store.set("d/e/new", bytes(round)),
        store.deletePrefix("d/"),
      ]);
      // Whichever ran last decides whether "new" survived; a survivor is whole.
      const value = await store.get("d/e/new");
      if (value !== undefined) expect(value).toEqual(bytes(round));
      await store.deletePrefix("");
    }
    expect(tempFilesUnder(root)).toEqual([]);
  });
});

describe("FsStore.getInto", () => {
  it("reads what get reads into the caller's buffer, or tells the size when it does not fit", async () => {
    const store = new FsStore(root, { fsync: false });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("v", "a/v", "a/c/0/0"),
        fc.uint8Array({ minLength: 0, maxLength: 300 }),
        fc.integer({ min: 0, max: 320 }),
        async (key, value, capacity) => {
          await store.set(key, value);
          const target = new Uint8Array(capacity).fill(0xee);
          const size = await store.getInto(key, target);
          expect(size).toBe(value.length);
          if (value.length <= capacity) {
            expect(target.subarray(0, value.length)).toEqual(await store.get(key));
            expect(target.subarray(value.length).every((b) => b === 0xee)).toBe(true);
          } else {
            // One read of capacity + 1 bytes told that it does not fit: what it read stays.
            expect(target).toEqual(value.subarray(0, capacity));
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("a missing key, a folder, a key below a value: undefined", async () => {
    const store = new FsStore(root);
    const target = new Uint8Array(8);
    expect(await store.getInto("nothing", target)).toBeUndefined(); // the root does not exist yet
    await store.set("a/b", bytes(1));
    expect(await store.getInto("a/missing", target)).toBeUndefined();
    expect(await store.getInto("a", target)).toBeUndefined();
    expect(await store.getInto("a/b/c", target)).toBeUndefined();
    // Deleted after a read in its folder: missing, not a stale read.
    expect(await store.getInto("a/b", target)).toBe(1);
    await store.delete("a/b");
    expect(await store.getInto("a/b", target)).toBeUndefined();
    await store.set("a/b", bytes(4, 5));
    expect(await store.getInto("a/b", target)).toBe(2);
    expect(target.subarray(0, 2)).toEqual(bytes(4, 5));
  });

  it("an aborted signal rejects before reading", async () => {
    const store = new FsStore(root);
    await store.set("k", bytes(1));
    const error = await store.getInto("k", new Uint8Array(4), { signal: AbortSignal.abort() }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "AbortError" });
  });
});

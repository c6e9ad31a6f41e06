import { rmSync } from "node:fs";
import * as path from "node:path";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { filled } from "./support.js";

/*
 * Which file system calls a chunk write and a chunk read make, counted through an
 * instrumented node:fs/promises (each call is one system call, or one per path component for
 * realpath): a write without a condition takes no lock file and reads nothing, a read into a
 * buffer needs no fstat, and folders are looked up once. `bench/syscalls.mjs` counts the same
 * with strace through the built package.
 */

const calls = vi.hoisted(() => [] as string[]);

vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const counted: Record<string, unknown> = { ...fs };
  for (const [name, value] of Object.entries(fs)) {
    if (typeof value !== "function" || name === "constants") continue;
    counted[name] = async (...args: unknown[]) => {
      calls.push(name);
      const result = await (value as (...a: unknown[]) => Promise<unknown>)(...args);
      if (name === "open") {
        const handle = result as import("node:fs/promises").FileHandle;
        for (const method of ["stat", "read", "readv", "writeFile", "write", "sync", "close"]) {
          const original = (handle as unknown as Record<string, (...a: unknown[]) => unknown>)[
            method
          ].bind(handle);
          (handle as unknown as Record<string, unknown>)[method] = (...a: unknown[]) => {
            calls.push(`handle.${method}`);
            return original(...a);
          };
        }
      }
      return result;
    };
  }
  return counted;
});

let sandbox: { dir: string; remove: () => void };
beforeEach(() => {
  sandbox = tempDir("z-store-fs-calls-");
  calls.length = 0;
});
afterEach(() => sandbox.remove());

/** The calls `run` makes, in order. */
async function callsOf(run: () => Promise<unknown>): Promise<string[]> {
  calls.length = 0;
  await run();
  return [...calls];
}

/** Where the system tells the path of an open file, a write checks it: one readlink more. */
const linux = process.platform === "linux";

describe("FsStore file system calls", () => {
  it("a whole write in a known folder: open, write, close, rename; no lock, stat or mkdir", async () => {
    const store = new FsStore(sandbox.dir, { fsync: false });
    const value = filled(16384, 3);
    await store.set("a/c/0/0", value); // the first write in the folder looks it up
    for (const key of ["a/c/0/1", "a/c/0/0"]) {
      expect(await callsOf(() => store.set(key, value)), key).toEqual([
        "open",
        ...(linux ? ["readlink"] : ["realpath"]),
        "handle.writeFile",
        "handle.close",
        "rename",
      ]);
    }
    expect(await store.get("a/c/0/1")).toEqual(value);
  });

  it("fsync only when asked", async () => {
    const store = new FsStore(sandbox.dir, { fsync: true });
    await store.set("k", filled(10, 1));
    expect(await callsOf(() => store.set("k", filled(10, 2)))).toEqual([
      "open",
      "handle.writeFile",
      "handle.sync",
      "handle.close",
      "rename",
    ]);
  });

  it("a read into a buffer: open, one read, close; a missing key in a known folder: one open", async () => {
    const store = new FsStore(sandbox.dir, { fsync: false });
    await store.set("a/c/0", filled(100, 1));
    await store.set("a/c/1", filled(300, 2));
    const target = new Uint8Array(200);
    expect(await store.getInto("a/c/0", target)).toBe(100); // the first read looks the folder up
    const check = linux ? ["readlink"] : [];
    expect(await callsOf(() => store.getInto("a/c/0", target))).toEqual([
      "open",
      ...check,
      "handle.readv",
      "handle.close",
    ]);
    // Larger than the buffer: the read says so, and an fstat tells the size.
    expect(await callsOf(() => store.getInto("a/c/1", target))).toEqual([
      "open",
      ...check,
      "handle.readv",
      "handle.stat",
      "handle.close",
    ]);
    expect(await store.getInto("a/c/1", target)).toBe(300);
    expect(await callsOf(() => store.get("a/c/missing"))).toEqual(["open"]);
    expect(await store.get("a/c/missing")).toBeUndefined();
  });

  it("ranges with a length need no size; a whole get and a suffix do", async () => {
    const store = new FsStore(sandbox.dir, { fsync: false });
    const value = Uint8Array.from({ length: 300 }, (_, i) => i);
    await store.set("a/c/0", value);
    await store.get("a/c/0"); // the first read looks the folder up
    const check = linux ? ["readlink"] : [];
    const range = { offset: 10, length: 20 };
    expect(await callsOf(() => store.get("a/c/0", { range }))).toEqual([
      "open",
      ...check,
      "handle.read",
      "handle.close",
    ]);
    expect(await store.get("a/c/0", { range })).toEqual(value.subarray(10, 30));
    expect(await callsOf(() => store.get("a/c/0", { range: { suffix: 4 } }))).toEqual([
      "open",
      "handle.stat",
      ...check,
      "handle.read",
      "handle.close",
    ]);
    // Past the end: clipped, as with the size known.
    expect(await store.getRanges("a/c/0", [{ offset: 290, length: 20 }])).toEqual([
      value.subarray(290),
    ]);
    expect(await store.get("a/c/0", { range: { offset: 400, length: 5 } })).toEqual(
      new Uint8Array(0),
    );
  });

  it("a delete in a known folder: the file opened to check where it is, then unlinked", async () => {
    const store = new FsStore(sandbox.dir, { fsync: false });
    await store.set("a/c/0", filled(4, 1));
    await store.set("a/c/1", filled(4, 1));
    const found = linux ? ["open", "readlink", "handle.close"] : ["realpath"];
    // The prune finds the folder not empty.
    expect(await callsOf(() => store.delete("a/c/0"))).toEqual([...found, "unlink", "rmdir"]);
    expect(await callsOf(() => store.delete("a/c/0"))).toEqual(
      linux ? ["open"] : ["realpath", "unlink"],
    );
    expect(await store.get("a/c/0")).toBeUndefined();
    expect(await store.get("a/c/1")).toEqual(filled(4, 1));
  });

  it("a folder removed behind the store's back is created again by the next write", async () => {
    const store = new FsStore(sandbox.dir, { fsync: false });
    await store.set("a/c/0", filled(4, 1));
    await store.set("a/c/1", filled(4, 1));
    rmSync(path.join(sandbox.dir, "a"), { recursive: true });
    const made = await callsOf(() => store.set("a/c/1", filled(4, 2)));
    expect(made.filter((call) => call === "mkdir")).toHaveLength(1);
    expect(await store.get("a/c/1")).toEqual(filled(4, 2));
    // Looked up again: the next write is the short one.
    expect(await callsOf(() => store.set("a/c/0", filled(4, 3)))).not.toContain("mkdir");
  });

  it("a conditional write still takes the lock and checks the version", async () => {
    const store = new FsStore(sandbox.dir, { fsync: false });
    await store.set("a/k", filled(4, 1));
    const { version } = (await store.getVersioned("a/k"))!;
    const made = await callsOf(() => store.set("a/k", filled(4, 2), { ifMatch: version }));
    // The lock file (created, written, closed, unlinked), the read of the current value.
    expect(made.filter((call) => call === "open")).toHaveLength(3);
    expect(made).toContain("unlink");
    expect(made).toContain("handle.read");
  });
});

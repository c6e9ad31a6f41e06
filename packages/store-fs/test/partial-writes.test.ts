import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { ConflictError, NotFoundError, ReadOnlyError } from "@z/store-core";
import { FsStore, OutsideRootError } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFsStoreForChild } from "./child-build.js";
import { waitForLines } from "./support.js";

const sandbox = tempDir("z-store-fs-partial-");
afterAll(() => sandbox.remove());
const posix = it.skipIf(process.platform === "win32");

/** The value the children patch: a head and a tail that no write may touch, 2s between. */
const SIZE = 24 * 1024 * 1024;
const HEAD = 1024 * 1024;
const TAIL = 1024 * 1024;
const PATCH = 1024 * 1024;
const PATCHES = (SIZE - HEAD - TAIL) / PATCH;
const ROUNDS = 6;

function original(): Uint8Array {
  const value = new Uint8Array(SIZE).fill(2);
  for (let i = 0; i < HEAD; i++) value[i] = (i * 7 + 3) & 0xff;
  for (let i = SIZE - TAIL; i < SIZE; i++) value[i] = (i * 13 + 5) & 0xff;
  return value;
}

/**
 * A child that patches the middle of one value forever, alternating all-1 and all-2 bytes, one
 * megabyte per patch, and says when each write starts: through FsStore.setPartialValues, or
 * (the control) by rewriting the whole file with a plain `writeFile`, which truncates it first.
 */
const child = (write: string) => `
import { readFile, writeFile } from "node:fs/promises";
import { FsStore } from ${JSON.stringify("STORE_URL")};
const [root, size, head, tail, patch] = process.argv.slice(2).map((a, i) => (i === 0 ? a : Number(a)));
const store = new FsStore(root, { fsync: false });
for (let i = 0; ; i++) {
  const byte = 1 + (i % 2);
  const writes = [];
  for (let offset = head; offset < size - tail; offset += patch) {
    writes.push({ key: "arr/c/0", offset, value: new Uint8Array(patch).fill(byte) });
  }
  ${write};
}
`;

let scripts: { inPlace: string; rewrite: string };
beforeAll(() => {
  const build = path.join(sandbox.dir, "build");
  const entry = pathToFileURL(buildFsStoreForChild(build)).href;
  const make = (name: string, write: string) => {
    const file = path.join(build, `${name}.mjs`);
    writeFileSync(file, child(write).replace("STORE_URL", entry));
    return file;
  };
  scripts = {
    inPlace: make(
      "in-place",
      'process.stdout.write("start\\n");\n  await store.setPartialValues(writes)',
    ),
    rewrite: make(
      "rewrite",
      `const whole = await readFile(root + "/arr/c/0");
  for (const w of writes) whole.set(w.value, w.offset);
  process.stdout.write("start\\n");
  await writeFile(root + "/arr/c/0", whole)`,
    ),
  };
});

/** What one "start the patcher, let it run, SIGKILL it" round left in the file. */
interface Outcome {
  length: number;
  headKept: boolean;
  tailKept: boolean;
  /** The distinct byte values of the patched span. */
  middle: number[];
}

async function killWhilePatching(script: string, root: string): Promise<Outcome[]> {
  const store = new FsStore(root, { fsync: false });
  const value = original();
  const outcomes: Outcome[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await store.set("arr/c/0", value);
    const writer = spawn(
      process.execPath,
      [script, root, String(SIZE), String(HEAD), String(TAIL), String(PATCH)],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    // Inside a write: each takes tens of milliseconds.
    await waitForLines(writer, "start", 1 + (round % 2));
    await new Promise((resolve) => setTimeout(resolve, round % 3));
    const exited = new Promise((resolve) => writer.once("exit", resolve));
    writer.kill("SIGKILL");
    await exited;

    const now = readFileSync(path.join(root, "arr", "c", "0"));
    const same = (start: number, end: number) =>
      now.length >= end && Buffer.from(value.subarray(start, end)).equals(now.subarray(start, end));
    outcomes.push({
      length: now.length,
      headKept: same(0, HEAD),
      tailKept: same(SIZE - TAIL, SIZE),
      middle: [...new Set(now.subarray(HEAD, Math.min(now.length, SIZE - TAIL)))].sort(),
    });
  }
  return outcomes;
}

describe("FsStore.setPartialValues", () => {
  it("a process killed while patching never truncates the file or touches bytes outside the patches", async () => {
    expect(PATCHES).toBeGreaterThan(8);
    const outcomes = await killWhilePatching(
      scripts.inPlace,
      path.join(sandbox.dir, "in-place.zarr"),
    );
    for (const outcome of outcomes) {
      expect(outcome.length, JSON.stringify(outcome)).toBe(SIZE);
      expect(outcome.headKept, "bytes before the patches").toBe(true);
      expect(outcome.tailKept, "bytes after the patches").toBe(true);
      for (const byte of outcome.middle) expect([1, 2], "patched bytes").toContain(byte);
    }
    // The kills did land inside calls: some left part of the new bytes, part of the old.
    expect(
      outcomes.filter((o) => o.middle.length === 2).length,
      JSON.stringify(outcomes),
    ).toBeGreaterThan(0);
  });

  it("control: the same kills leave a truncated or damaged file behind a whole rewrite", async () => {
    const outcomes = await killWhilePatching(
      scripts.rewrite,
      path.join(sandbox.dir, "rewrite.zarr"),
    );
    const damaged = outcomes.filter((o) => o.length !== SIZE || !o.tailKept);
    expect(damaged.length, JSON.stringify(outcomes)).toBeGreaterThan(0);
  });

  it("extends past the end, and writes several keys in one call", async () => {
    const store = new FsStore(path.join(sandbox.dir, "extend.zarr"), { fsync: false });
    await store.set("a", Uint8Array.of(1, 2, 3));
    await store.set("b/c", Uint8Array.of(9));
    await store.setPartialValues([
      { key: "a", offset: 5, value: Uint8Array.of(7, 8) },
      { key: "b/c", offset: 0, value: Uint8Array.of(4, 5) },
      { key: "a", offset: 1, value: Uint8Array.of(6) },
    ]);
    expect(await store.get("a")).toEqual(Uint8Array.of(1, 6, 3, 0, 0, 7, 8));
    expect(await store.get("b/c")).toEqual(Uint8Array.of(4, 5));
    expect(await store.getSize("a")).toBe(7);
  });

  it("changes the value's version, so a conditional write built on the old value fails", async () => {
    const store = new FsStore(path.join(sandbox.dir, "version.zarr"), { fsync: false });
    await store.set("k", new Uint8Array(8));
    const before = (await store.getVersioned("k"))!;
    await store.setPartialValues([{ key: "k", offset: 2, value: Uint8Array.of(1) }]);
    await expect(store.set("k", new Uint8Array(8), { ifMatch: before.version })).rejects.toThrow(
      ConflictError,
    );
    expect(await store.get("k")).toEqual(Uint8Array.of(0, 0, 1, 0, 0, 0, 0, 0));
  });

  it("refuses missing keys, folders and read-only stores, changing nothing", async () => {
    const root = path.join(sandbox.dir, "refused.zarr");
    const store = new FsStore(root, { fsync: false });
    await store.set("a/b", Uint8Array.of(1));
    await store.set("k", Uint8Array.of(1, 2));
    const patch = Uint8Array.of(5);
    await expect(
      store.setPartialValues([{ key: "missing", offset: 0, value: patch }]),
    ).rejects.toThrow(NotFoundError);
    await expect(store.setPartialValues([{ key: "a", offset: 0, value: patch }])).rejects.toThrow(
      NotFoundError,
    );
    const readOnly = new FsStore(root, { readOnly: true });
    await expect(
      readOnly.setPartialValues([{ key: "k", offset: 0, value: patch }]),
    ).rejects.toThrow(ReadOnlyError);
    expect(readOnly.supportsPartialWrites).toBe(false);
    expect(store.supportsPartialWrites).toBe(true);
    expect(await store.get("k")).toEqual(Uint8Array.of(1, 2));
    expect(await store.has("missing")).toBe(false);
  });

  posix("refuses a value whose symlink leads outside the root", async () => {
    const root = path.join(sandbox.dir, "links.zarr");
    const outside = path.join(sandbox.dir, "outside-value");
    mkdirSync(root, { recursive: true });
    writeFileSync(outside, Uint8Array.of(1, 2, 3));
    symlinkSync(outside, path.join(root, "k"));
    const store = new FsStore(root, { fsync: false });
    await expect(
      store.setPartialValues([{ key: "k", offset: 0, value: Uint8Array.of(9) }]),
    ).rejects.toThrow(OutsideRootError);
    expect(readFileSync(outside)).toEqual(Buffer.from([1, 2, 3]));
  });
});

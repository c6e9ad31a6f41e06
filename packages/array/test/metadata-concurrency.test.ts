import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  consolidateMetadata,
  createGroup,
  openGroup,
  type ZarrArray,
  type ZarrGroup,
} from "@z/array";
import { type Listable, MapStore, type Readable, type Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { repositoryRoot, tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Op, runWriter, type Target } from "./metadata-writers.js";

/*
 * Metadata read-modify-writes (attribute updates of arrays and groups, resizes, node creation,
 * and the consolidated metadata that lists them) from several writers at once, each with
 * objects of its own over one hierarchy, against a model: every attribute key a writer set
 * holds that writer's last value (keys every writer sets hold one of their last values), the
 * final shape is one of the resizes, the consolidated metadata names every node created and
 * lists each node as it is stored.
 */

const INITIAL_LENGTH = 4;
const TARGETS: Target[] = ["root", "g", "a"];

/** The operations of `writers` writers; keys and node names carry the writer's number. */
function opsArb(writers: number, maxOps: number): fc.Arbitrary<Op[][]> {
  const one = (w: number) =>
    fc
      .array(
        fc.oneof(
          fc.record({
            kind: fc.constant("attr" as const),
            target: fc.constantFrom(...TARGETS),
            key: fc.constantFrom(`w${w}k0`, `w${w}k1`, "shared"),
            value: fc.integer({ min: 0, max: 1000 }),
            yields: fc.nat(3),
          }),
          fc.record({
            kind: fc.constant("resize" as const),
            length: fc.integer({ min: 0, max: 9 }),
            yields: fc.nat(3),
          }),
          fc.record({
            kind: fc.constant("create" as const),
            name: fc.constant(""),
            array: fc.boolean(),
            yields: fc.nat(3),
          }),
        ),
        { minLength: 1, maxLength: maxOps },
      )
      .map((ops) =>
        ops.map((op, i) => (op.kind === "create" ? { ...op, name: `w${w}n${i}` } : op)),
      );
  return fc.tuple(...Array.from({ length: writers }, (_, w) => one(w)));
}

/** The hierarchy every run starts from: a root with group `g` and array `a`, consolidated. */
async function setUp(store: Readable & Writable, zarrFormat: 2 | 3): Promise<void> {
  const root = await createGroup(store, { zarrFormat });
  await root.createGroup("g");
  await root.createArray("a", { shape: [INITIAL_LENGTH], chunks: [2], dtype: "uint8" });
  await consolidateMetadata(store);
}

/** Checks the stored hierarchy against what the writers did. */
async function checkOutcome(store: Readable & Writable, writers: Op[][]): Promise<void> {
  const stored = await openGroup(store, { consolidated: false });
  const nodes: Record<Target, ZarrGroup | ZarrArray> = {
    root: stored,
    g: (await stored.get("g")) as ZarrGroup,
    a: (await stored.get("a")) as ZarrArray,
  };
  for (const target of TARGETS) {
    const attrs = nodes[target].attrs;
    const sharedValues: number[] = [];
    writers.forEach((ops, w) => {
      const last = new Map<string, number>();
      for (const op of ops)
        if (op.kind === "attr" && op.target === target) last.set(op.key, op.value);
      for (const [key, value] of last) {
        if (key === "shared") sharedValues.push(value);
        else expect(attrs[key], `/${target} ${key}: writer ${w}'s last value`).toBe(value);
      }
    });
    if (sharedValues.length > 0) expect(sharedValues).toContain(attrs.shared);
    else expect(attrs.shared).toBeUndefined();
  }
  const lengths = writers.flatMap((ops) =>
    ops.flatMap((op) => (op.kind === "resize" ? [op.length] : [])),
  );
  const length = (nodes.a as ZarrArray).shape[0];
  expect(lengths.length > 0 ? lengths : [INITIAL_LENGTH]).toContain(length);

  // The consolidated metadata names every node and lists each as stored.
  const consolidated = await openGroup(store);
  const view = consolidated.consolidated;
  expect(view).toBeDefined();
  const created = writers.flatMap((ops) =>
    ops.flatMap((op) => (op.kind === "create" ? [op.name] : [])),
  );
  expect(view?.paths().sort()).toEqual(["a", "g", ...created].sort());
  const listedA = (await consolidated.get("a")) as ZarrArray;
  expect(listedA.shape).toEqual([length]);
  expect(listedA.attrs).toEqual(nodes.a.attrs);
  expect(((await consolidated.get("g")) as ZarrGroup).attrs).toEqual(nodes.g.attrs);
  expect(consolidated.attrs).toEqual(nodes.root.attrs);
}

/** Hides a store's conditional writes, so only the in-process lock protects its updates. */
function withoutConditionalWrites(inner: MapStore): Readable & Writable & Listable {
  return {
    get: (key, options) => inner.get(key, options),
    set: (key, value, options) => inner.set(key, value, options),
    delete: (key, options) => inner.delete(key, options),
    deletePrefix: (prefix, options) => inner.deletePrefix(prefix, options),
    list: () => inner.list(),
    listPrefix: (prefix) => inner.listPrefix(prefix),
    listDir: (prefix) => inner.listDir(prefix),
  };
}

const { dir: scratch, remove } = tempDir("z-metadata-concurrency-");
afterAll(remove);

/** Ways writers share a store: a factory of one store per writer over one shared hierarchy. */
const sharings: [string, () => (writer: number) => Readable & Writable, number][] = [
  [
    "one MapStore object (key locks and conditional writes)",
    () => {
      const store = new MapStore();
      return () => store;
    },
    60,
  ],
  [
    "one store object without conditional writes (key locks only)",
    () => {
      const store = withoutConditionalWrites(new MapStore());
      return () => store;
    },
    60,
  ],
  [
    "a MapStore object per writer over one map (conditional writes only, as processes)",
    () => {
      const map = new Map<string, Uint8Array>();
      return () => new MapStore(map);
    },
    60,
  ],
  [
    "an FsStore object per writer over one folder",
    () => {
      const folder = mkdtempSync(path.join(scratch, "fs-"));
      return () => new FsStore(folder);
    },
    8,
  ],
];

describe("concurrent metadata updates lose no update", () => {
  for (const [name, sharing, numRuns] of sharings) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(2 as const, 3 as const),
          opsArb(3, 5),
          async (format, writers) => {
            const storeOf = sharing();
            await setUp(storeOf(-1), format);
            const problems = await Promise.all(writers.map((ops, w) => runWriter(storeOf(w), ops)));
            expect(problems.flat()).toEqual([]);
            await checkOutcome(storeOf(-1), writers);
          },
        ),
        { numRuns },
      );
    }, 240_000);
  }
});

describe("consolidateMetadata next to attribute updates", () => {
  it("keeps the attributes set while it scanned (the group's document is read fresh)", async () => {
    const steps = fc.array(fc.tuple(fc.boolean(), fc.nat(3)), { minLength: 2, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(2 as const, 3 as const), steps, async (format, plan) => {
        const store = new MapStore();
        await setUp(store, format);
        const root = await openGroup(store);
        const set: Record<string, number> = {};
        await Promise.all(
          plan.map(async ([consolidate, turns], i) => {
            for (let t = 0; t < turns; t++) await new Promise((resolve) => setImmediate(resolve));
            if (consolidate) await consolidateMetadata(store);
            else {
              set[`k${i}`] = i;
              await root.updateAttributes({ [`k${i}`]: i });
            }
          }),
        );
        const stored = await openGroup(store, { consolidated: false });
        expect(stored.attrs).toEqual(set);
        expect((await openGroup(store)).consolidated?.paths().sort()).toEqual(["a", "g"]);
      }),
      { numRuns: 60 },
    );
  });
});

describe("two Node processes on one FsStore lose no metadata update", () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = path.join(scratch, "metadata-writer-child.mjs");
  const run = promisify(execFile);

  beforeAll(() => {
    // The child is bundled from the sources (the "source" condition, as the tests resolve),
    // so it runs the code under test without a build of the packages.
    const esbuild = path.join(repositoryRoot, "node_modules/.bin/esbuild");
    execFileSync(esbuild, [
      path.join(here, "metadata-writer-child.ts"),
      "--bundle",
      "--platform=node",
      "--format=esm",
      "--conditions=source",
      `--outfile=${child}`,
      "--log-level=error",
      // Native and WebAssembly codecs the writers never use stay files beside the bundle.
      "--loader:.node=file",
      "--loader:.wasm=file",
      // Node built-ins and the few CommonJS dependencies stay imports of the child.
      "--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    ]);
  }, 120_000);

  it("attribute updates, resizes and creations from two processes at once", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(2 as const, 3 as const),
        opsArb(2, 8),
        async (format, writers) => {
          const folder = mkdtempSync(path.join(scratch, "procs-"));
          await setUp(new FsStore(folder), format);
          const outputs = await Promise.all(
            writers.map(async (ops, w) => {
              const opsFile = `${folder}-ops-${w}.json`;
              writeFileSync(opsFile, JSON.stringify(ops));
              const { stdout } = await run(process.execPath, [child, folder, opsFile]);
              return JSON.parse(stdout) as string[];
            }),
          );
          expect(outputs.flat()).toEqual([]);
          await checkOutcome(new FsStore(folder), writers);
        },
      ),
      { numRuns: 4 },
    );
  }, 240_000);
});

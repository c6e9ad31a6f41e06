import path from "node:path";
import {
  bytesSource,
  createArray,
  createGroup,
  createZipFile,
  FsStore,
  MemoryArchive,
  MemoryStore,
  open,
  openZipFile,
  validateKey,
  ZipStore,
  ZipWriter,
} from "@z/zarr";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { exerciseNode } from "./lib/exercise.js";
import { fuzz, InvariantError } from "./lib/harness.js";
import {
  hostileKey,
  type KeyCase,
  type KeyOperation,
  keyCase,
  resolveKey,
} from "./lib/hostile-keys.js";
import { WatchedFolder } from "./lib/outside.js";

// Hostile keys and node paths through every store (memory, a folder, a zip file, and zip
// archives whose entry names are hostile): success or a typed error, no read or write outside
// the store's root, and nothing but valid keys listed afterwards.

type AnyStore = {
  get(key: string, options?: object): Promise<Uint8Array | undefined>;
  has?(key: string): Promise<boolean>;
  set(key: string, value: Uint8Array): Promise<void>;
  setIfNotExists?(key: string, value: Uint8Array): Promise<boolean>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  list(): AsyncIterable<string>;
  listPrefix(prefix: string): AsyncIterable<string>;
  listDir(prefix: string): Promise<unknown>;
};

const PAYLOAD = new TextEncoder().encode("fuzz");

async function step(
  store: AnyStore,
  operation: KeyOperation,
  key: string,
  watched?: WatchedFolder,
) {
  switch (operation) {
    case "get":
      watched?.checkRead(await store.get(key));
      return;
    case "getRange":
      watched?.checkRead(await store.get(key, { range: { offset: 0, length: 40 } }));
      return;
    case "has":
      await store.has?.(key);
      return;
    case "set":
      await store.set(key, PAYLOAD);
      return;
    case "setIfNotExists":
      await store.setIfNotExists?.(key, PAYLOAD);
      return;
    case "delete":
      await store.delete(key);
      return;
    case "deletePrefix":
      await store.deletePrefix(key);
      return;
    case "listPrefix":
      for await (const _ of store.listPrefix(key));
      return;
    case "listDir":
      await store.listDir(key);
      return;
    case "createArray": {
      const arr = await createArray(store as never, {
        path: key,
        shape: [3],
        chunks: [2],
        dtype: "int8",
        compressors: null,
      });
      await arr.set(null, 5);
      return;
    }
    case "createGroup":
      await createGroup(store as never, { path: key });
      return;
    case "open":
      await exerciseNode(store as never, key);
      return;
    case "groupChild": {
      const group = await createGroup(store as never, { path: "g" });
      await group.createArray(key, { shape: [2], dtype: "uint8", compressors: null });
      await group.get(key);
      return;
    }
  }
}

/** Every listed key must be one the key rules accept. */
async function checkListing(store: AnyStore) {
  for await (const key of store.list()) {
    try {
      validateKey(key);
    } catch {
      throw new InvariantError(`The store lists an invalid key ${JSON.stringify(key)}`);
    }
  }
}

async function runSteps(store: AnyStore, input: KeyCase, watched?: WatchedFolder) {
  let failure: unknown;
  for (const { operation, key } of input.steps) {
    try {
      await step(store, operation, watched ? resolveKey(key, watched.dir) : key, watched);
    } catch (error) {
      if (error instanceof InvariantError) throw error;
      failure ??= error;
    }
  }
  await checkListing(store);
  // The first error of the steps decides the case (a typed one passes).
  if (failure) throw failure;
}

const describeCase = (input: KeyCase) =>
  input.steps.map((s) => ({ operation: s.operation, key: s.key }));

describe("fuzz: hostile keys and paths", () => {
  const watched = new WatchedFolder();
  afterAll(() => watched.dispose());

  it("keys/memory", async () => {
    const summary = await fuzz({
      name: "keys/memory",
      arbitrary: keyCase,
      run: (input) => runSteps(new MemoryStore(), input),
      describe: describeCase,
    });
    expect(summary.failureCount, summary.report).toBe(0);
  });

  it("keys/fs: a folder store, with sentinel files around its root", async () => {
    const summary = await fuzz({
      name: "keys/fs",
      arbitrary: keyCase,
      async run(input) {
        watched.clearRoot();
        const store = new FsStore(watched.root, { fsync: false });
        try {
          await runSteps(store, input, watched);
        } finally {
          watched.check();
        }
      },
      describe: describeCase,
    });
    expect(summary.failureCount, summary.report).toBe(0);
  });

  it("keys/zip: a zip file written through the store, then read back", async () => {
    const summary = await fuzz({
      name: "keys/zip",
      arbitrary: keyCase,
      async run(input) {
        watched.clearRoot(true);
        const file = path.join(watched.root, "store.zip");
        const store = await createZipFile(file, { fsync: false });
        try {
          await runSteps(store, input, watched);
        } finally {
          await store.close().catch(() => undefined);
          watched.check();
        }
        const reread = await openZipFile(file);
        try {
          await checkListing(reread);
        } finally {
          await reread.close();
        }
      },
      describe: describeCase,
    });
    expect(summary.failureCount, summary.report).toBe(0);
  });

  it("keys/zip-entries: archives whose entry names are hostile", async () => {
    const summary = await fuzz({
      name: "keys/zip-entries",
      arbitrary: fc.record({
        names: fc.array(hostileKey, { minLength: 1, maxLength: 4 }),
        withRoot: fc.boolean(),
        prefix: fc.oneof(fc.constant(undefined), hostileKey),
      }),
      async run(input) {
        const archive = await hostileArchive(input.names, input.withRoot);
        const store = await ZipStore.open(
          bytesSource(archive),
          input.prefix === undefined ? {} : { prefix: input.prefix },
        );
        await checkListing(store);
        for await (const key of store.list()) await store.get(key);
        await store.listDir("");
        await open(store);
      },
    });
    expect(summary.failureCount, summary.report).toBe(0);
  });
});

/**
 * A zip archive with the given entry names, as raw bytes: our writer refuses invalid names, so
 * each entry is written under a placeholder of the same byte length and the name bytes are
 * patched in both the local header and the central directory afterwards.
 */
async function hostileArchive(names: string[], withRoot: boolean): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const archive = new MemoryArchive();
  const writer = new ZipWriter(archive);
  const patches: [Uint8Array, Uint8Array][] = [];
  if (withRoot)
    await writer.add(
      "zarr.json",
      encoder.encode(JSON.stringify({ zarr_format: 3, node_type: "group" })),
    );
  for (const [i, name] of names.entries()) {
    const bytes = encoder.encode(name).subarray(0, 60_000);
    if (bytes.length === 0) continue;
    // A unique ASCII placeholder of the same length (a letter, then the index).
    const tag = `q${i}`;
    const placeholder = encoder.encode(
      tag
        .padEnd(Math.max(bytes.length, tag.length), "z")
        .slice(0, Math.max(bytes.length, tag.length)),
    );
    if (placeholder.length !== bytes.length) continue;
    await writer.add(new TextDecoder().decode(placeholder), encoder.encode(`entry ${i}`));
    patches.push([placeholder, bytes]);
  }
  await writer.close();
  const out = archive.bytes().slice();
  for (const [from, to] of patches) {
    for (let at = indexOf(out, from, 0); at !== -1; at = indexOf(out, from, at + from.length))
      out.set(to, at);
  }
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.length).indexOf(needle, from);
}

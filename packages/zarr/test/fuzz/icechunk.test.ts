import { zstdDecompress } from "@z/compression/zstd";
import { createRepository, openRepository } from "@z/store-icechunk";
import { createArray, createGroup, MemoryStore, openArray, slice } from "@z/zarr";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { applyByteMutations, type ByteMutation, byteMutations, bytesText } from "./lib/bytes.js";
import { fuzz, InvariantError } from "./lib/harness.js";

// Hostile Icechunk repository files: the repo info, snapshots, manifests and transaction logs of
// a repository our writer made, damaged as they are stored (zstd-compressed) or inside their
// flatbuffers payload (stored uncompressed, so the decoders see the damage). Opening the
// repository and reading every ref, the history, each commit's changes and every key and
// array of every branch must succeed or throw a typed error.

/** The metadata files of a repository (chunk files are Zarr chunks, fuzzed elsewhere). */
const METADATA = /^(repo$|snapshots\/|manifests\/|transactions\/)/;
/** Where a metadata file's header ends: the byte that names its compression. */
const COMPRESSION_BYTE = 38;

interface IcechunkCase {
  /** Which metadata file. */
  file: number;
  /** Damage the file as stored, or its decompressed payload. */
  level: "file" | "payload";
  mutations: ByteMutation[];
}

const icechunkCase: fc.Arbitrary<IcechunkCase> = fc.record({
  file: fc.nat(),
  level: fc.constantFrom("file" as const, "payload" as const),
  mutations: byteMutations,
});

/** Writes a small repository: two commits on main, a branch, a tag, inline and file chunks. */
async function writeRepository(): Promise<Map<string, Uint8Array>> {
  const store = new MemoryStore();
  const repo = await createRepository(store);
  const first = await repo.writableSession({ branch: "main" });
  await createGroup(first.store, { path: "group", attributes: { note: "fuzz" } });
  const small = await createArray(first.store, {
    path: "group/small",
    shape: [12],
    chunks: [4],
    dtype: "int16",
    compressors: null,
  });
  await small.set(
    null,
    Int16Array.from({ length: 12 }, (_, i) => i - 6),
  );
  // Chunks above the inline threshold go to chunk files.
  const big = await createArray(first.store, {
    path: "big",
    shape: [2, 400],
    chunks: [1, 400],
    dtype: "float32",
    compressors: null,
  });
  await big.set(
    null,
    Float32Array.from({ length: 800 }, (_, i) => i / 4),
  );
  const v1 = await first.commit("first");
  await repo.createTag("v1", v1);
  await repo.createBranch("dev", v1);
  const second = await repo.writableSession({ branch: "main" });
  const again = await openArray(second.store, { path: "group/small" });
  await again.set([slice(0, 4)], Int16Array.of(9, 9, 9, 9));
  await second.commit("second");
  const files = new Map<string, Uint8Array>();
  for await (const key of store.list()) files.set(key, (await store.get(key)) as Uint8Array);
  return files;
}

/** Opens the repository and reads everything a user can reach through it. */
async function readEverything(files: Map<string, Uint8Array>): Promise<void> {
  const repo = await openRepository(files, { maxMetadataBytes: 1 << 20 });
  await repo.listTags();
  for (const branch of await repo.listBranches()) {
    for (const { id, parentId } of await repo.ancestry({ branch }))
      if (parentId !== undefined) await repo.changes(id);
    const session = await repo.readonlySession({ branch });
    for await (const key of session.store.list()) await session.store.get(key);
    for (const path of ["group/small", "big"]) {
      const array = await openArray(session.store, { path });
      const all = await array.get();
      if (JSON.stringify(all.shape) !== JSON.stringify(array.shape))
        throw new InvariantError(`${path}: a whole read of the wrong shape`);
    }
  }
}

describe("fuzz: hostile Icechunk repository files", () => {
  let files: Map<string, Uint8Array>;
  let targets: string[];
  beforeAll(async () => {
    files = await writeRepository();
    targets = [...files.keys()].filter((key) => METADATA.test(key)).sort();
  });

  /** The repository with one metadata file damaged. */
  async function damaged(input: IcechunkCase): Promise<{ key: string; bytes: Uint8Array }> {
    const key = targets[input.file % targets.length];
    const file = files.get(key) as Uint8Array;
    if (input.level === "file") return { key, bytes: applyByteMutations(file, input.mutations) };
    const compressed = file[COMPRESSION_BYTE] === 1;
    const body = file.subarray(COMPRESSION_BYTE + 1);
    const payload = compressed ? await zstdDecompress(body, { maxSize: 1 << 24 }) : body;
    const mutated = applyByteMutations(payload, input.mutations);
    const bytes = new Uint8Array(COMPRESSION_BYTE + 1 + mutated.length);
    bytes.set(file.subarray(0, COMPRESSION_BYTE));
    bytes[COMPRESSION_BYTE] = 0;
    bytes.set(mutated, COMPRESSION_BYTE + 1);
    return { key, bytes };
  }

  it("the repository reads undamaged, and re-framed uncompressed the same", async () => {
    expect(targets.length).toBeGreaterThanOrEqual(7);
    await readEverything(files);
    const uncompressed = new Map(files);
    for (const key of targets) {
      const { bytes } = await damaged({
        file: targets.indexOf(key),
        level: "payload",
        mutations: [],
      });
      uncompressed.set(key, bytes);
    }
    await readEverything(uncompressed);
  });

  it("icechunk: damaged repo info, snapshots, manifests and transaction logs", async () => {
    // The damaged file of each case, for its failure record (details are computed synchronously).
    const made = new WeakMap<IcechunkCase, { key: string; bytes: Uint8Array }>();
    const summary = await fuzz({
      name: "icechunk",
      arbitrary: icechunkCase,
      async run(input) {
        const { key, bytes } = await damaged(input);
        made.set(input, { key, bytes });
        await readEverything(new Map(files).set(key, bytes));
      },
      describe: (input) => ({
        file: targets[input.file % targets.length],
        case: fc.stringify(input),
      }),
      details(input) {
        const file = made.get(input);
        return file && { key: file.key, file: bytesText(file.bytes) };
      },
    });
    expect(summary.failureCount, summary.report).toBe(0);
  }, 600_000);
});

import { zstdDecompress } from "@z/compression/zstd";
import { IcechunkError, IcechunkFormatError, openRepository } from "@z/store-icechunk";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { metadataFile } from "./build-manifest.js";
import { type OfficialRepo, writeOfficialRepository } from "./official-repo.js";

/*
 * Truncated, mutated and re-encoded repository files (repo info, snapshots, manifests,
 * transaction logs, ref files) written by the official implementation: reading the whole repository through them
 * either works or fails with an Icechunk error naming the file, never anything else.
 */

/** Opens the repository and reads every ref, the history and every key of every branch tip. */
async function readEverything(files: Map<string, Uint8Array>): Promise<void> {
  const repo = await openRepository(files, { maxMetadataBytes: 1 << 20 });
  const branches = await repo.listBranches();
  await repo.listTags();
  for (const branch of branches) {
    for (const { id, parentId } of await repo.ancestry({ branch }))
      if (parentId !== undefined) await repo.changes(id);
    const session = await repo.readonlySession({ branch });
    for await (const key of session.store.list()) await session.store.get(key);
  }
}

/** The file's flatbuffers payload, decompressed (the header says zstd). */
async function payloadOf(file: Uint8Array): Promise<Uint8Array> {
  return file[38] === 1
    ? zstdDecompress(file.subarray(39), { maxSize: 1 << 24 })
    : file.subarray(39);
}

type Mutation =
  | { kind: "truncate"; at: number }
  | { kind: "flip"; at: number; xor: number }
  | { kind: "payload-flip"; at: number[]; value: number[] }
  | { kind: "payload-truncate"; at: number };

const mutation = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("flip" as const),
    at: fc.nat(),
    xor: fc.integer({ min: 1, max: 255 }),
  }),
  fc.record({
    kind: fc.constant("payload-flip" as const),
    at: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    value: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant("payload-truncate" as const), at: fc.nat() }),
);

async function mutate(file: Uint8Array, m: Mutation): Promise<Uint8Array> {
  const isMetadata = file.length >= 39 && file[0] === 0x49 && file[1] === 0x43;
  if (m.kind === "truncate") return file.slice(0, m.at % (file.length + 1));
  if (m.kind === "flip" || !isMetadata) {
    const at = m.kind === "flip" ? m.at : 0;
    const out = file.slice();
    out[at % out.length] ^= m.kind === "flip" ? m.xor : 0x20;
    return out;
  }
  // Mutations inside the flatbuffers payload, stored uncompressed so the reader sees them.
  const payload = (await payloadOf(file)).slice();
  if (m.kind === "payload-truncate")
    return metadataFile(file[37], file[36], 0, payload.slice(0, m.at % (payload.length + 1)));
  m.at.forEach((at, i) => {
    payload[at % payload.length] = m.value[i];
  });
  return metadataFile(file[37], file[36], 0, payload);
}

describe.each([1, 2] as const)("corrupt files of a spec version %i repository", (specVersion) => {
  let written: OfficialRepo;
  beforeAll(async () => {
    written = await writeOfficialRepository(specVersion);
  }, 120_000);

  it("the untouched repository reads", async () => {
    await readEverything(written.files);
  });

  it("an uncompressed re-encoding of every metadata file reads the same", async () => {
    const files = new Map(written.files);
    for (const [key, bytes] of files)
      if (/^(repo|snapshots\/|manifests\/|transactions\/)/.test(key))
        files.set(key, metadataFile(bytes[37], bytes[36], 0, await payloadOf(bytes)));
    await readEverything(files);
  });

  it("a node path holding a NUL character is refused as a format error of its snapshot", async () => {
    const files = new Map(written.files);
    const name = new TextEncoder().encode("/sharded");
    let changed = 0;
    for (const [key, bytes] of files) {
      if (!key.startsWith("snapshots/")) continue;
      const payload = (await payloadOf(bytes)).slice();
      for (let at = 0; at + name.length <= payload.length; at++)
        if (name.every((b, i) => payload[at + i] === b)) {
          payload[at + 3] = 0;
          changed++;
        }
      files.set(key, metadataFile(bytes[37], bytes[36], 0, payload));
    }
    expect(changed).toBeGreaterThan(0);
    const read = readEverything(files);
    await expect(read).rejects.toBeInstanceOf(IcechunkFormatError);
    await expect(read).rejects.toThrow(/NUL character/);
  });

  it("only ever fails with Icechunk errors that name the file", async () => {
    const targets = [...written.files.keys()].filter((k) =>
      /^(repo$|snapshots\/|manifests\/|transactions\/|refs\/)/.test(k),
    );
    expect(targets.length).toBeGreaterThan(3);
    let failures = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), mutation, async (target, m) => {
        const files = new Map(written.files);
        files.set(target, await mutate(written.files.get(target) as Uint8Array, m));
        try {
          await readEverything(files);
        } catch (error) {
          failures++;
          if (!(error instanceof IcechunkError)) throw error;
          if (error instanceof IcechunkFormatError) {
            // The mutated file, or a chunk file a mutated manifest points past the end of.
            if (error.file !== target) expect(error.file).toMatch(/^chunks\//);
            expect(error.message).toContain(error.file);
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(failures).toBeGreaterThan(0);
  }, 120_000);
});

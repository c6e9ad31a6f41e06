import { MemoryStore, openArray, slice } from "@z/zarr";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { applyByteMutations, type ByteMutation, byteMutations, bytesText } from "./lib/bytes.js";
import { chunkSetups, goldenArrays, type WrittenArray, writeSetup } from "./lib/chunk-setups.js";
import { exerciseNode } from "./lib/exercise.js";
import { fuzz, InvariantError } from "./lib/harness.js";
import { loadMetadataCorpus } from "./lib/metadata-corpus.js";

// Damaged chunks of every codec (truncated, bit-flipped, hostile length fields, spliced),
// read through a real array: success with the right shape, or a typed error.

interface ChunkCase {
  array: number;
  chunk: number;
  mutations: ByteMutation[];
}

function chunkCase(arrays: readonly { chunkKeys: string[] }[]): fc.Arbitrary<ChunkCase> {
  return fc.record({
    array: fc.nat({ max: arrays.length - 1 }),
    chunk: fc.nat(),
    mutations: byteMutations,
  });
}

function damaged(
  written: WrittenArray,
  input: ChunkCase,
): { key: string; bytes: Uint8Array; store: MemoryStore } {
  const key = written.chunkKeys[input.chunk % written.chunkKeys.length];
  const original = written.files.find(([k]) => k === key)?.[1] as Uint8Array;
  const bytes = applyByteMutations(original, input.mutations);
  const store = new MemoryStore(written.files.map(([k, v]) => [k, k === key ? bytes : v] as const));
  return { key, bytes, store };
}

describe("fuzz: damaged chunks of every codec", () => {
  const written: WrittenArray[] = [];
  beforeAll(async () => {
    const problems: string[] = [];
    for (const setup of chunkSetups()) {
      try {
        written.push(await writeSetup(setup));
      } catch (e) {
        problems.push(`${setup.label}: ${e}`);
      }
    }
    if (problems.length) throw new Error(`Could not write:\n${problems.join("\n")}`);
    written.push(...goldenArrays());
  });

  it("every setup reads back before damage", async () => {
    for (const w of written) {
      const arr = await openArray(new MemoryStore(w.files));
      expect((await arr.get()).shape, w.label).toEqual(arr.shape);
    }
  });

  it("chunks: each codec's chunks damaged", async () => {
    const summary = await fuzz({
      name: "chunks",
      arbitrary: chunkCase(written),
      async run(input) {
        const { store } = damaged(written[input.array], input);
        const arr = await openArray(store);
        const all = await arr.get();
        if (JSON.stringify(all.shape) !== JSON.stringify(arr.shape)) {
          throw new InvariantError(
            `read shape ${JSON.stringify(all.shape)} for an array of ${JSON.stringify(arr.shape)}`,
          );
        }
        // A part of the array: the partial (sharded) read path.
        const part = await arr.get(arr.shape.map((n) => slice(1, Math.min(n, 6))));
        if (part.shape[0] !== Math.min(arr.shape[0], 6) - 1)
          throw new InvariantError("partial read of the wrong shape");
      },
      describe: (input) => ({
        array: written[input.array].label,
        chunk: written[input.array].chunkKeys[input.chunk % written[input.array].chunkKeys.length],
        mutations: fc.stringify(input.mutations),
      }),
      details(input) {
        const { key, bytes } = damaged(written[input.array], input);
        return { key, damaged: bytesText(bytes) };
      },
    });
    expect(summary.failureCount, summary.report).toBe(0);
  });

  const fixtures = loadMetadataCorpus()
    .fixtures.map((seed) => {
      const files: [string, Uint8Array][] = [
        [seed.key, new TextEncoder().encode(seed.text)],
        ...seed.files,
      ];
      const metadata = /(^|\/)(zarr\.json|\.zarray|\.zattrs|\.zgroup)$/;
      return {
        label: seed.label,
        files,
        chunkKeys: files.map(([k]) => k).filter((k) => !metadata.test(k)),
      };
    })
    .filter((w) => w.chunkKeys.length > 0);

  it.skipIf(fixtures.length === 0)(
    `chunks/fixtures: chunks written by zarr-python, damaged (${fixtures.length} arrays)`,
    async () => {
      const summary = await fuzz({
        name: "chunks/fixtures",
        arbitrary: chunkCase(fixtures),
        async run(input) {
          await exerciseNode(damaged(fixtures[input.array], input).store);
        },
        describe: (input) => ({
          array: fixtures[input.array].label,
          chunk:
            fixtures[input.array].chunkKeys[input.chunk % fixtures[input.array].chunkKeys.length],
          mutations: fc.stringify(input.mutations),
        }),
        details(input) {
          const { key, bytes } = damaged(fixtures[input.array], input);
          return { key, damaged: bytes.length > 3000 ? `${bytes.length} bytes` : bytesText(bytes) };
        },
      });
      expect(summary.failureCount, summary.report).toBe(0);
    },
  );
});

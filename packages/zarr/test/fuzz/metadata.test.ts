import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exerciseNode, storeOf } from "./lib/exercise.js";
import { fuzz } from "./lib/harness.js";
import { type DocumentMutation, documentMutation, mutateDocument } from "./lib/json.js";
import { loadMetadataCorpus, type SeedStore } from "./lib/metadata-corpus.js";

// Mutated metadata documents (.zarray, .zgroup, .zattrs, .zmetadata, zarr.json): opening the
// node and reading and writing a corner of it must succeed or throw a typed error.

const corpus = loadMetadataCorpus();

interface MetadataCase {
  seed: number;
  mutation: DocumentMutation;
}

function target(name: string, seeds: SeedStore[]) {
  const arbitrary = fc.record({
    seed: fc.nat({ max: Math.max(0, seeds.length - 1) }),
    mutation: documentMutation(corpus.fragments.length),
  });
  const build = (input: MetadataCase) => {
    const seed = seeds[input.seed];
    const doc = mutateDocument(seed.text, input.mutation, corpus.fragments);
    return { seed, doc };
  };
  return {
    name,
    arbitrary,
    async warmUp() {
      for (const seed of seeds) {
        await exerciseNode(
          storeOf([...seed.files, [seed.key, new TextEncoder().encode(seed.text)]]),
        ).catch(() => undefined);
      }
    },
    async run(input: MetadataCase) {
      const { seed, doc } = build(input);
      const store = storeOf([...seed.files, [seed.key, doc]]);
      await exerciseNode(store);
    },
    describe(input: MetadataCase) {
      const seed = seeds[input.seed];
      return { seedStore: seed.label, key: seed.key, mutation: fc.stringify(input.mutation) };
    },
    details(input: MetadataCase) {
      const { doc } = build(input);
      const text = new TextDecoder().decode(doc);
      // Deep or long documents are cut: the mutation (and seed + path) rebuild them exactly.
      return {
        document: text.length > 4000 ? `${text.slice(0, 4000)}…(${doc.length} bytes)` : text,
      };
    },
  };
}

describe("fuzz: metadata documents", () => {
  for (const [name, seeds] of [
    ["metadata/v2", corpus.v2],
    ["metadata/v3", corpus.v3],
    ["metadata/consolidated", corpus.consolidated],
    ["metadata/fixtures", corpus.fixtures],
  ] as const) {
    it.skipIf(seeds.length === 0)(`${name}: ${seeds.length} seed stores`, async () => {
      const summary = await fuzz(target(name, seeds));
      expect(summary.failureCount, summary.report).toBe(0);
    });
  }
});

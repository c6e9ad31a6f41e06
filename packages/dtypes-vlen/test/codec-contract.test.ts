// Every codec this package registers, through the codec contract suite of @z/codecs.
import { type ChunkSpec, loadCodecs, registeredCodecs } from "@z/codecs";
import { type CodecContractOptions, chunkOf, describeCodecContract } from "@z/codecs/testing";
import { bytesDataType, ObjectDataType, stringDataType } from "@z/dtypes-vlen";
import type { DataType } from "@z/metadata";
import { beforeAll, describe, expect, it } from "vitest";

const spec = (dataType: DataType, shape: number[], fillValue: unknown): ChunkSpec => ({
  shape,
  dataType,
  fillValue,
});
const count = (s: ChunkSpec) => s.shape.reduce((a, b) => a * b, 1);

/** Sample chunks of `s` from `value(i, seed)`: three seeds, and all fill values. */
function samples(s: ChunkSpec, value: (i: number, seed: number) => unknown) {
  const n = count(s);
  const of = (seed: number) =>
    chunkOf(
      s,
      Array.from({ length: n }, (_, i) => value(i, seed)),
    );
  return { spec: s, chunks: [of(0), of(1), chunkOf(s, new Array(n).fill(s.fillValue))] };
}

const TRICKY = ["", "a", "\0", "é", "日本語", "🚀", "x".repeat(130), "\uFEFFbom"];
const strings = samples(
  spec(stringDataType, [3, 4], ""),
  (i, seed) => TRICKY[(i * (seed + 1)) % TRICKY.length],
);
const bytes = samples(spec(bytesDataType, [9], new Uint8Array(0)), (i, seed) =>
  Uint8Array.from({ length: (i * (seed + 3)) % 11 }, (_, k) => (k * 37 + i) & 0xff),
);
const object = new ObjectDataType();
const jsonObjects = samples(
  spec(object, [2, 3], 0),
  (i, seed) => [i, `s${i}`, [i, seed], { k: i }, null, 1.5, true][(i + seed) % 7],
);
const int16Arrays = samples(spec(object, [5], new Int16Array(0)), (i, seed) =>
  Int16Array.from({ length: (i + seed) % 4 }, (_, k) => k * 1000 - i),
);

const VARIANTS: Record<string, CodecContractOptions[]> = {
  "vlen-utf8": [{ codec: { name: "vlen-utf8" }, samples: [strings] }],
  "numcodecs.vlen-utf8": [
    { codec: { name: "numcodecs.vlen-utf8" }, samples: [strings], zarrFormat: 2 },
  ],
  "vlen-bytes": [{ codec: { name: "vlen-bytes" }, samples: [bytes] }],
  "numcodecs.vlen-bytes": [
    { codec: { name: "numcodecs.vlen-bytes" }, samples: [bytes], zarrFormat: 2 },
  ],
  "numcodecs.vlen-array": [
    {
      codec: { name: "numcodecs.vlen-array", configuration: { dtype: "<i2" } },
      samples: [int16Arrays],
      zarrFormat: 2,
    },
  ],
  "numcodecs.json2": [
    { codec: { name: "numcodecs.json2" }, samples: [jsonObjects], zarrFormat: 2 },
  ],
  "numcodecs.json": [{ codec: { name: "numcodecs.json" }, samples: [jsonObjects], zarrFormat: 2 }],
  "numcodecs.msgpack2": [
    { codec: { name: "numcodecs.msgpack2" }, samples: [jsonObjects], zarrFormat: 2 },
  ],
  "z.vlen-offsets": [
    { codec: { name: "z.vlen-offsets" }, samples: [strings] },
    { codec: { name: "z.vlen-offsets" }, samples: [bytes] },
  ],
};

describe("every codec this package registers is in the contract table", () => {
  it("no vlen codec is left out", () => {
    const vlen = registeredCodecs().filter((n) => /vlen|json|msgpack/.test(n));
    expect(vlen.length).toBeGreaterThan(0);
    expect(vlen.filter((n) => !(n in VARIANTS))).toEqual([]);
  });
});

// The codecs of the table load on first use; the contract suite builds them synchronously.
beforeAll(() => loadCodecs(Object.keys(VARIANTS)));

for (const [name, variants] of Object.entries(VARIANTS)) {
  for (const [i, options] of variants.entries())
    describeCodecContract(variants.length > 1 ? `${name} #${i + 1}` : name, options);
}

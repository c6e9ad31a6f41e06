// The Arrow IPC codec (under each name it is registered as), through the codec contract suite
// of @z/codecs, over a few Arrow types with nulls.
import { loadCodecs, registeredCodecs } from "@z/codecs";
import { chunkOf, describeCodecContract } from "@z/codecs/testing";
import { arrowDataType } from "@z/dtypes-arrow";
import { beforeAll, describe, expect, it } from "vitest";
import { CASES, type Case, elements, field } from "./cases.js";

const int32 = { name: "int", bitWidth: 32, isSigned: true } as const;

/** Types apache-arrow cannot write (our own IPC writer writes them): runs and list views. */
const OWN_WRITER_CASES: Case[] = [
  {
    label: "run_end_encoded<int32, utf8>",
    field: field("v", { name: "runendencoded" }, true, [
      field("run_ends", int32, false),
      field("values", { name: "utf8" }),
    ]),
    make: (i) => (i % 5 === 3 ? null : `run ${i >> 2}`),
  },
  {
    label: "listview<int32>",
    field: field("v", { name: "listview" }, true, [field("item", int32)]),
    make: (i) => (i % 5 === 3 ? null : Array.from({ length: i % 3 }, (_, k) => i * 10 + k)),
  },
];

const PICKED = [
  "int32",
  "float64",
  "bool",
  "utf8",
  "utf8view",
  "binaryview",
  "list<int32>",
  "decimal128(10, 2)",
  "run_end_encoded<int32, utf8>",
  "listview<int32>",
];
const NAMES = ["z.arrow-ipc", "arrow-ipc", "arrow_ipc"];
// The codec loads on first use; the contract suite builds it synchronously.
beforeAll(() => loadCodecs(NAMES));

function samplesOf(label: string) {
  const c = [...CASES, ...OWN_WRITER_CASES].find((x) => x.label === label);
  if (!c) throw new Error(`no Arrow case ${label}`);
  const dataType = arrowDataType(c.field);
  const spec = { shape: [3, 4], dataType, fillValue: dataType.defaultFill };
  const values = elements(c, 12);
  return {
    spec,
    chunks: [
      chunkOf(spec, values),
      chunkOf(spec, [...values].reverse()),
      chunkOf(spec, new Array(12).fill(spec.fillValue)),
    ],
  };
}

describe("every Arrow codec name is in the contract table", () => {
  it("no arrow codec is left out", () => {
    const arrow = registeredCodecs().filter((n) => n.includes("arrow"));
    expect(arrow.sort()).toEqual([...NAMES].sort());
  });
});

for (const name of NAMES) {
  describeCodecContract(name, { codec: { name }, samples: PICKED.map(samplesOf) });
}

// Compressed IPC bodies (Arrow's LZ4_FRAME and ZSTD buffer compression).
for (const compression of ["lz4_frame", "zstd"]) {
  describeCodecContract(`z.arrow-ipc (body_compression ${compression})`, {
    codec: { name: "z.arrow-ipc", configuration: { body_compression: compression } },
    samples: PICKED.map(samplesOf),
  });
}

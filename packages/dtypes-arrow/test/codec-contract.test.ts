// The Arrow IPC codec (under each name it is registered as), through the codec contract suite
// of @z/codecs, over a few Arrow types with nulls.
import { registeredCodecs } from "@z/codecs";
import { chunkOf, describeCodecContract } from "@z/codecs/testing";
import { arrowDataType } from "@z/dtypes-arrow";
import { describe, expect, it } from "vitest";
import { CASES, elements } from "./cases.js";

const PICKED = [
  "int32",
  "float64",
  "bool",
  "utf8",
  "utf8view",
  "binaryview",
  "list<int32>",
  "decimal128(10, 2)",
];
const NAMES = ["z.arrow-ipc", "arrow-ipc", "arrow_ipc"];

function samplesOf(label: string) {
  const c = CASES.find((x) => x.label === label);
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

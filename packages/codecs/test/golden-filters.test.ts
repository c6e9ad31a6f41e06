// numcodecs' golden files for the filters: every encoded.NN.dat must decode to array.NN (for
// the lossy filters: to exactly what numcodecs' own decode gives, computed by Debian's
// numcodecs 0.11), and encoding array.NN must give the golden bytes (numcodecs' filters are
// deterministic). The golden files hold the filter output's elements little-endian.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import {
  type ArrayToArrayCodec,
  BytesCodec,
  type BytesToBytesCodec,
  type ChunkSpec,
  type Codec,
  loadCodecs,
  resolveCodec,
} from "@z/codecs";
import { type DataType, resolveNumpyDataType } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { type GoldenCase, goldenCases, haveFixtures } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PYTHON = "/usr/bin/python3";
const LE = new BytesCodec("little");

// The filters load on first use; codecFor builds them synchronously.
beforeAll(() =>
  loadCodecs(
    ["astype", "delta", "fixedscaleoffset", "packbits", "quantize", "shuffle"].map(
      (id) => `numcodecs.${id}`,
    ),
  ),
);

function codecFor(config: Record<string, unknown>, spec: ChunkSpec): Codec {
  const { id, ...configuration } = config;
  const codec = resolveCodec(
    { name: `numcodecs.${id}`, configuration: configuration as never, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  );
  if (!codec) throw new Error(`numcodecs.${id} is not registered`);
  return codec;
}

/** The golden input as a 1-d chunk in memory order (numcodecs flattens with order "A"). */
function inputChunk(c: GoldenCase): { spec: ChunkSpec; chunk: Chunk; dataType: DataType } {
  const { dataType } = resolveNumpyDataType(c.array.descr);
  const n = c.array.data.length / dataType.itemSize;
  const spec: ChunkSpec = { shape: [n], dataType, fillValue: dataType.defaultFill };
  return { spec, dataType, chunk: LE.decode(c.array.data, spec) };
}

/** Encodes with an array-to-array filter and serialises the result little-endian. */
async function encodeFilter(c: GoldenCase): Promise<Uint8Array> {
  const { spec, chunk } = inputChunk(c);
  const codec = codecFor(c.config, spec) as ArrayToArrayCodec;
  const encoded = await codec.encode(chunk, spec);
  return LE.encode(encoded, codec.encodedSpec(spec));
}

/** Decodes golden bytes with an array-to-array filter and serialises the result little-endian. */
async function decodeFilter(c: GoldenCase): Promise<Uint8Array> {
  const { spec } = inputChunk(c);
  const codec = codecFor(c.config, spec) as ArrayToArrayCodec;
  const decoded = await codec.decode(LE.decode(c.encoded, codec.encodedSpec(spec)), spec);
  expect(decoded.shape, c.label).toEqual(spec.shape);
  return LE.encode(decoded, spec);
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** numcodecs' own decode of golden files, from Debian's numcodecs 0.11 (undefined without it). */
function numcodecsDecodes(cases: GoldenCase[]): Map<string, Uint8Array> | undefined {
  if (!existsSync(PYTHON)) return undefined;
  const script = `
import sys, json, base64, numpy as np, numcodecs
out = {}
for c in json.load(sys.stdin):
    codec = numcodecs.get_codec(dict(c["config"]))
    dec = np.ascontiguousarray(codec.decode(base64.b64decode(c["encoded"])))
    dec = dec.astype(dec.dtype.newbyteorder("<"))
    out[c["label"]] = base64.b64encode(dec.tobytes()).decode()
print(json.dumps(out))
`;
  try {
    const input = JSON.stringify(
      cases.map((c) => ({
        label: c.label,
        config: c.config,
        encoded: Buffer.from(c.encoded).toString("base64"),
      })),
    );
    const output = execFileSync(PYTHON, ["-c", script], { input, maxBuffer: 1 << 28 }).toString();
    const parsed = JSON.parse(output) as Record<string, string>;
    return new Map(
      Object.entries(parsed).map(([k, v]) => [k, new Uint8Array(Buffer.from(v, "base64"))]),
    );
  } catch (error) {
    console.warn(
      `[golden-filters] numcodecs via ${PYTHON} unavailable: ${(error as Error).message.split("\n")[0]}`,
    );
    return undefined;
  }
}

const report: string[] = [];
afterAll(() => {
  if (report.length) console.log(`[golden-filters]\n  ${report.join("\n  ")}`);
});

const present = haveFixtures("golden-filters");
const LOSSLESS = [
  "delta/bool",
  "delta/float32",
  "delta/float64",
  "delta/int32",
  "delta/uint16",
  "packbits",
];
const LOSSY = ["fixedscaleoffset", "quantize", "astype/f", "astype/i"];

describe.skipIf(!present)("numcodecs golden files: filters", () => {
  for (const folder of LOSSLESS) {
    it(`${folder}: decodes every golden file to the array and encodes byte-identically`, async () => {
      const cases = goldenCases(folder);
      expect(cases.length).toBeGreaterThan(0);
      for (const c of cases) {
        expect(same(await encodeFilter(c), c.encoded), `${c.label} encode`).toBe(true);
        expect(same(await decodeFilter(c), c.array.data), `${c.label} decode`).toBe(true);
      }
      report.push(
        `${folder}: ${cases.length} cases encoded byte-identically, ${cases.length} decoded to the array`,
      );
    });
  }

  describe("lossy filters", () => {
    const all = LOSSY.flatMap((folder) => goldenCases(folder));
    let reference: Map<string, Uint8Array> | undefined;
    beforeAll(() => {
      reference = numcodecsDecodes(all);
    });

    for (const folder of LOSSY) {
      it(`${folder}: encodes byte-identically and decodes exactly as numcodecs 0.11 does`, async () => {
        const cases = goldenCases(folder);
        expect(cases.length).toBeGreaterThan(0);
        let exact = 0;
        let checked = 0;
        for (const c of cases) {
          expect(same(await encodeFilter(c), c.encoded), `${c.label} encode`).toBe(true);
          const decoded = await decodeFilter(c);
          if (same(decoded, c.array.data)) exact++;
          // Without Python too: what we decode must encode back to the golden bytes.
          const again = await encodeFilter({ ...c, array: { ...c.array, data: decoded } });
          expect(same(again, c.encoded), `${c.label} re-encode of the decoded values`).toBe(true);
          const expected = reference?.get(c.label);
          if (expected) {
            expect(same(decoded, expected), `${c.label} decode`).toBe(true);
            checked++;
          }
        }
        if (!reference) {
          console.warn(
            `[golden-filters] ${folder}: SKIPPED the decode comparison: ${PYTHON} with numcodecs is missing`,
          );
        }
        report.push(
          `${folder}: ${cases.length} cases encoded byte-identically and re-encoded from their decoding; ${checked} decoded exactly as numcodecs 0.11 ` +
            `(${exact} of them equal to the original array)`,
        );
      });
    }
  });

  it("shuffle: unshuffles every golden file to the array bytes and shuffles byte-identically", async () => {
    const cases = goldenCases("shuffle");
    expect(cases.length).toBeGreaterThan(0);
    const { dataType } = resolveNumpyDataType("|u1");
    let untouched = 0;
    for (const c of cases) {
      const spec: ChunkSpec = { shape: [c.array.data.length], dataType, fillValue: 0 };
      const codec = codecFor(c.config, spec) as BytesToBytesCodec;
      expect(codec.kind).toBe("bytes_to_bytes");
      const size = c.array.data.length;
      expect(same(await codec.encode(c.array.data), c.encoded), `${c.label} encode`).toBe(true);
      const decoded = await codec.decode(c.encoded, { expectedSize: size, maxSize: size });
      expect(same(decoded, c.array.data), `${c.label} decode`).toBe(true);
      if (same(c.encoded, c.array.data)) untouched++;
    }
    // numcodecs leaves the bytes alone for elementsize 0 (codec.01): the golden files show it.
    expect(untouched).toBeGreaterThanOrEqual(
      goldenCases("shuffle").filter((c) => c.config.elementsize === 0).length,
    );
    report.push(
      `shuffle: ${cases.length} cases shuffled byte-identically and unshuffled (${untouched} unchanged by elementsize 0)`,
    );
  });
});

// The filters inside whole codec pipelines: round trips with strided (transposed) input chunks,
// and fixture arrays written by zarr-python 2 and 3 with these filters, decoded and re-encoded.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type ChunkSpec, CodecPipeline, hasCodec, loadCodecs, loadCodecsFor } from "@z/codecs";
import { quantizeBits } from "@z/codecs/internal";
import {
  type ArrayMetadata,
  type DataType,
  type JsonValue,
  type NamedConfig,
  parseArrayMetadataV2,
  parseArrayMetadataV3,
  type RegularChunkGrid,
  resolveDataTypeV3,
} from "@z/metadata";
import { type Chunk, product, toCOrder } from "@z/ndarray";
import { expectedArrays, fixturePath, haveFixtures } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

const report: string[] = [];
afterAll(() => {
  if (report.length) console.log(`[filters-pipeline]\n  ${report.join("\n  ")}`);
});

const entry = (name: string, configuration: Record<string, unknown> = {}): NamedConfig => ({
  name,
  configuration: configuration as never,
  mustUnderstand: true,
});
const LE_BYTES = entry("bytes", { endian: "little" });

/** Values of a chunk in C order, as plain numbers/bigints. */
function cValues(chunk: Chunk, dataType: DataType): unknown[] {
  const ordered = toCOrder(chunk, (n) => dataType.create(n), dataType.lanes);
  return Array.from(
    { length: product(chunk.shape) },
    (_, i) => (ordered.data as ArrayLike<unknown>)[i],
  );
}

/** A chunk of `shape` filled by `value(i)` in C order, and its transposed (strided) view. */
function chunkAndTransposedView(
  dataType: DataType,
  shape: [number, number],
  value: (i: number) => unknown,
) {
  const data = dataType.create(shape[0] * shape[1]) as unknown as unknown[];
  for (let i = 0; i < data.length; i++) data[i] = value(i);
  const view: Chunk = { data: data as never, shape: [shape[1], shape[0]], stride: [1, shape[1]] };
  return view;
}

interface RoundTrip {
  title: string;
  dataType: string;
  codecs: NamedConfig[];
  value: (i: number) => unknown;
  /** The largest acceptable |decoded - original| for an element (lossless when absent). */
  tolerance?: (original: number) => number;
  fillValue?: unknown;
}

let seed = 7;
const random = () => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};

const bitsFor3Digits = quantizeBits(3);

const roundTrips: RoundTrip[] = [
  {
    title: "delta int32 (wrapping differences)",
    dataType: "int32",
    codecs: [entry("numcodecs.delta", { dtype: "<i4" }), LE_BYTES],
    value: (i) => (i % 3 === 0 ? 2 ** 31 - 1 - i : -(2 ** 31) + i * 7),
  },
  {
    title: "delta uint16 written as int32, dtype by name",
    dataType: "uint16",
    codecs: [entry("numcodecs.delta", { dtype: "uint16", astype: "int32" }), LE_BYTES],
    value: (i) => (i * 7919) % 65536,
  },
  {
    title: "delta float64 then shuffle and crc32c",
    dataType: "float64",
    codecs: [
      entry("numcodecs.delta", { dtype: "<f8" }),
      LE_BYTES,
      entry("numcodecs.shuffle", { elementsize: 8 }),
      entry("crc32c"),
    ],
    value: (i) => 1000 + i / 7,
  },
  {
    title: "delta bool",
    dataType: "bool",
    // numcodecs' bool delta encodes with != but decodes with OR (it does not round-trip):
    // only runs of false followed by true survive, which is what this input is (in the C order
    // of the transposed view: element i of memory is view element (i % 7, i / 7)).
    codecs: [entry("numcodecs.delta", { dtype: "|b1", astype: "|b1" }), LE_BYTES],
    value: (i) => ((i % 7) * 5 + Math.floor(i / 7) >= 20 ? 1 : 0),
  },
  {
    title: "fixedscaleoffset float64 as int32",
    dataType: "float64",
    codecs: [
      entry("numcodecs.fixedscaleoffset", {
        offset: 1000,
        scale: 100,
        dtype: "<f8",
        astype: "<i4",
      }),
      LE_BYTES,
    ],
    value: () => 1000 + (random() - 0.5) * 40,
    tolerance: () => 0.5 / 100 + 1e-9,
    fillValue: 1000.5,
  },
  {
    title: "quantize float32, 3 digits",
    dataType: "float32",
    codecs: [entry("numcodecs.quantize", { digits: 3, dtype: "<f4", astype: "<f4" }), LE_BYTES],
    value: () => (random() - 0.5) * 20,
    tolerance: (x) => 0.5 / 2 ** bitsFor3Digits + Math.abs(x) * 2 ** -23,
  },
  {
    title: "bitround float32, 7 bits kept",
    dataType: "float32",
    codecs: [entry("numcodecs.bitround", { keepbits: 7 }), LE_BYTES],
    value: () => (random() - 0.5) * 1e6,
    tolerance: (x) => Math.abs(x) * 2 ** -8,
  },
  {
    title: "bitround float64, 20 bits kept, then shuffle",
    dataType: "float64",
    codecs: [
      entry("numcodecs.bitround", { keepbits: 20 }),
      LE_BYTES,
      entry("numcodecs.shuffle", {}),
    ],
    value: () => (random() - 0.5) * 1e-3,
    tolerance: (x) => Math.abs(x) * 2 ** -21,
  },
  {
    title: "astype int32 stored as int16",
    dataType: "int32",
    codecs: [entry("numcodecs.astype", { encode_dtype: "<i2", decode_dtype: "<i4" }), LE_BYTES],
    value: (i) => ((i * 997) % 30000) - 15000,
  },
  {
    title: "packbits bool (35 elements: 5 padding bits)",
    dataType: "bool",
    codecs: [entry("numcodecs.packbits"), LE_BYTES],
    value: (i) => ((i * 5) % 7 < 3 ? 1 : 0),
  },
  {
    title: "shuffle int32 (elementsize from the data type)",
    dataType: "int32",
    codecs: [LE_BYTES, entry("numcodecs.shuffle")],
    value: (i) => i * 65537,
  },
  {
    title: "transpose, delta, bytes, shuffle",
    dataType: "int16",
    codecs: [
      entry("transpose", { order: [1, 0] }),
      entry("numcodecs.delta", { dtype: "<i2" }),
      LE_BYTES,
      entry("numcodecs.shuffle", { elementsize: 2 }),
    ],
    value: (i) => i * i - 300,
  },
  {
    title: "astype then delta (the delta sees the astype's output type)",
    dataType: "float64",
    codecs: [
      entry("numcodecs.astype", { encode_dtype: "<i4", decode_dtype: "<f8" }),
      entry("numcodecs.delta", { dtype: "<i4", astype: "<i2" }),
      LE_BYTES,
    ],
    value: (i) => i * 3 - 40,
  },
];

describe("filters in a codec pipeline", () => {
  for (const t of roundTrips) {
    it(`round-trips a transposed (strided) chunk: ${t.title}`, async () => {
      const dataType = resolveDataTypeV3(t.dataType);
      const view = chunkAndTransposedView(dataType, [5, 7], t.value);
      const spec: ChunkSpec = {
        shape: view.shape,
        dataType,
        fillValue: t.fillValue ?? dataType.defaultFill,
      };
      // The filters load on first use, as opening an array would load them.
      await loadCodecsFor(t.codecs as unknown as JsonValue);
      const pipeline = CodecPipeline.create(t.codecs, spec, 3);
      const original = cValues(view, dataType);

      const fromView = await pipeline.encode(view);
      const fromCopy = await pipeline.encode(toCOrder(view, (n) => dataType.create(n)));
      // Filters work on the chunk as the array sees it (C order of the view), not its memory.
      expect(Buffer.from(fromView).equals(Buffer.from(fromCopy))).toBe(true);
      if (pipeline.encodedSize !== undefined) expect(fromView.length).toBe(pipeline.encodedSize);

      const decoded = await pipeline.decode(fromView);
      expect(decoded.shape).toEqual(spec.shape);
      expect(decoded.data.constructor).toBe(dataType.create(0).constructor);
      const values = cValues(decoded, dataType);
      if (!t.tolerance) {
        expect(values).toEqual(original);
      } else {
        let worst = 0;
        values.forEach((v, i) => {
          const error = Math.abs((v as number) - (original[i] as number));
          expect(error, `element ${i}: ${v} vs ${original[i]}`).toBeLessThanOrEqual(
            t.tolerance!(original[i] as number),
          );
          worst = Math.max(worst, error);
        });
        // Lossy filters are idempotent: encoding what they decoded gives the same bytes.
        expect(Buffer.from(await pipeline.encode(decoded)).equals(Buffer.from(fromView))).toBe(
          true,
        );
        report.push(`${t.title}: largest error ${worst.toExponential(2)}`);
      }
    });
  }

  it("converts the fill value into the encoded type (fixedscaleoffset, astype, packbits)", async () => {
    await loadCodecs(["numcodecs.fixedscaleoffset", "numcodecs.astype", "numcodecs.packbits"]);
    const float64 = resolveDataTypeV3("float64");
    const fso = CodecPipeline.create(
      [
        entry("numcodecs.fixedscaleoffset", {
          offset: 1000,
          scale: 100,
          dtype: "<f8",
          astype: "<i4",
        }),
        LE_BYTES,
      ],
      { shape: [4], dataType: float64, fillValue: 1000.255 },
      2,
    );
    // (1000.255 - 1000) * 100 = 25.4999..., rounded half-even by NumPy's around: 25.
    expect(fso.arrayToBytes.spec.fillValue).toBe(25);
    expect(fso.arrayToBytes.spec.dataType.name).toBe("int32");

    const astype = CodecPipeline.create(
      [entry("numcodecs.astype", { encode_dtype: "|u1", decode_dtype: "<f8" }), LE_BYTES],
      { shape: [4], dataType: float64, fillValue: -1 },
      2,
    );
    expect(astype.arrayToBytes.spec.fillValue).toBe(255);

    const packbits = CodecPipeline.create(
      [entry("numcodecs.packbits"), LE_BYTES],
      {
        shape: [3, 3],
        dataType: resolveDataTypeV3("bool"),
        fillValue: true,
      },
      2,
    );
    expect(packbits.arrayToBytes.spec.shape).toEqual([3]);
    expect(packbits.encodedSize).toBe(3);
  });
});

// --- fixture arrays ----------------------------------------------------------------------------

interface FixtureArray {
  folder: string;
  name: string;
  /** Whether re-encoding must reproduce the stored chunk byte for byte (no compressor). */
  byteExact: boolean;
}

const FIXTURE_ARRAYS: FixtureArray[] = [
  { folder: "zarrita/v3/data.zarr", name: "1d.contiguous.delta.i4", byteExact: true },
  { folder: "zarrita/v3/data.zarr", name: "3d.contiguous.delta.i4.mixed", byteExact: true },
  { folder: "zarrita/v2/data.zarr", name: "1d.contiguous.bitround.f4", byteExact: true },
  { folder: "zarrita/v2/data.zarr", name: "1d.contiguous.fixedscaleoffset.f4", byteExact: true },
  { folder: "zarrita/v2/data.zarr", name: "1d.contiguous.delta.i2", byteExact: false },
  { folder: "zarrita/v2/data.zarr", name: "1d.contiguous.delta.shuffle.i2", byteExact: false },
  { folder: "zarrita/v2/data.zarr", name: "1d.contiguous.shuffle.i2", byteExact: false },
];

function readMetadata(dir: string): ArrayMetadata {
  try {
    return parseArrayMetadataV3(JSON.parse(readFileSync(join(dir, "zarr.json"), "utf8")));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return parseArrayMetadataV2(JSON.parse(readFileSync(join(dir, ".zarray"), "utf8")));
  }
}

const present = haveFixtures("filters-pipeline");

describe.skipIf(!present)("fixture arrays written by zarr-python with numcodecs filters", () => {
  for (const f of FIXTURE_ARRAYS) {
    it(`${f.folder}/${f.name}: decodes to zarr-python's values${f.byteExact ? " and re-encodes byte-identically" : ""}`, async (ctx) => {
      const dir = fixturePath(f.folder, f.name);
      const meta = readMetadata(dir);
      const missing = meta.codecs.filter((c) => !hasCodec(c.name)).map((c) => c.name);
      if (missing.length) {
        console.warn(
          `[filters-pipeline] SKIPPED ${f.name}: codecs not registered: ${missing.join(", ")}`,
        );
        return ctx.skip();
      }
      const grid = meta.chunkGrid as RegularChunkGrid;
      expect(grid.chunkShape).toEqual(meta.shape);
      const spec: ChunkSpec = {
        shape: [...grid.chunkShape],
        dataType: meta.dataType,
        fillValue: meta.fillValue,
      };
      await loadCodecsFor(meta.codecs as unknown as JsonValue);
      const pipeline = CodecPipeline.create(meta.codecs, spec, meta.zarrFormat);
      const key = meta.chunkKeyEncoding.encode(meta.shape.map(() => 0));
      const stored = new Uint8Array(readFileSync(join(dir, ...key.split("/"))));

      const decoded = await pipeline.decode(stored);
      const expected = expectedArrays().find((e) => e.label === `${f.folder}/${f.name}`);
      expect(expected, "expected values").toBeDefined();
      const ordered = toCOrder(decoded, (n) => meta.dataType.create(n));
      const json = Array.from({ length: product(decoded.shape) }, (_, i) =>
        meta.dataType.toJsonElement(meta.dataType.getElement(ordered.data, i)),
      );
      expect(json).toEqual(expected!.values);

      const encoded = await pipeline.encode(decoded);
      if (f.byteExact) expect(Buffer.from(encoded).equals(Buffer.from(stored))).toBe(true);
      else
        expect(cValues(await pipeline.decode(encoded), meta.dataType)).toEqual(
          cValues(decoded, meta.dataType),
        );
      report.push(
        `${f.name}: ${json.length} values as zarr-python read them via ${meta.codecs.map((c) => c.name).join(" > ")}` +
          (f.byteExact ? "; re-encoded byte-identically" : "; re-encoded and read back"),
      );
    });
  }
});

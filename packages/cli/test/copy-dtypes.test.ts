import { runCli, scratchFolders } from "@z/test-utils";
import {
  type ArrayOptions,
  createArray,
  type DataType,
  FsStore,
  loadDataTypes,
  openArray,
  resolveDataTypeV2,
  type StructType,
  type ZarrArray,
} from "@z/zarr";
import { describe, expect, it } from "vitest";

/**
 * `zarr copy` of every kind of data type, from a v2 array and from a sharded v3 one, to the
 * same format, to the other one and with new chunks: the copy reads back what the source does.
 */
const scratch = scratchFolders("z-copy-dtype-");
const NAT = -(2n ** 63n);
const bytes = (text: string) => new TextEncoder().encode(text);

interface Case {
  label: string;
  dtype: string | DataType;
  fill: unknown;
  values: unknown[];
  serializer?: string;
}

// The structured type is resolved synchronously below; its members' types load on first use.
await loadDataTypes();
const STRUCT = resolveDataTypeV2([
  ["a", "<i4"],
  ["c", "<c8"],
  ["t", "<M8[s]"],
  ["s", "|S3"],
  ["u", "<U2"],
] as never).dataType as StructType;
const record = (a: number, t: bigint, s: string, u: string) => ({
  a,
  c: { re: a / 2, im: -a },
  t,
  s: bytes(s),
  u,
});

/** Eleven values then the fill value, for a [3, 4] array. */
const CASES: Case[] = [
  {
    label: "complex64",
    dtype: "<c8",
    fill: { re: Number.NaN, im: 1 },
    values: [1.5, -2, 0, 3e30, Number.NaN, 7, -1, 0.25, 1e-30, 2, 9].map((re, i) => ({
      re,
      im: i % 3 ? -re : Number.POSITIVE_INFINITY,
    })),
  },
  {
    label: "datetime64[ns]",
    dtype: "<M8[ns]",
    fill: "NaT",
    values: [0n, 1n, -1n, 1_700_000_000_123_456_789n, NAT, 2n ** 62n, -(2n ** 62n), 5n, 6n, 7n, 8n],
  },
  {
    label: "fixed bytes S5",
    dtype: "|S5",
    fill: bytes("ab"),
    values: ["", "a", "abcde", "a\0b", "xyz", "12345", "é", "q", "r", "s", "t"].map(bytes),
  },
  {
    label: "fixed unicode U4",
    dtype: "<U4",
    fill: "q",
    values: ["", "a", "abcd", "😀x", "ßàř", "ƪùüx", "1", "2", "3", "4", "5"],
  },
  {
    label: "structured",
    dtype: STRUCT,
    fill: record(-7, NAT, "ab", "x"),
    values: Array.from({ length: 11 }, (_, i) =>
      record(i * 1000 - 3, BigInt(i) * 86400n, "s".repeat(i % 4), "ü".repeat(i % 3)),
    ),
  },
  {
    label: "vlen string",
    dtype: "string",
    fill: "",
    values: ["", "plain", "héllo", "日本語", "🚀🎉", "a\0b", "\0", "λ".repeat(50), "", "tail", "x"],
  },
  {
    label: "vlen bytes",
    dtype: "bytes",
    fill: new Uint8Array(0),
    values: ["", "a", "\0\0", "🚀", "xyz", "", "q", "r", "s", "t", "end"].map(bytes),
  },
];

function jsonValues(array: ZarrArray, data: unknown): unknown[] {
  const t = array.dataType;
  return Array.from({ length: 12 }, (_, i) => t.toJsonElement(t.getElement(data as never, i)));
}

/** The source: v2 with zlib, or v3 sharded (2 x 4 shards of 1 x 2 chunks, gzip inside). */
async function source(dir: string, c: Case, zarrFormat: 2 | 3): Promise<ZarrArray> {
  const dtype =
    zarrFormat === 3 && typeof c.dtype !== "string" ? STRUCT.withoutFixedOrders() : c.dtype;
  const layout: Partial<ArrayOptions> =
    zarrFormat === 2
      ? { chunks: [2, 3], compressor: { id: "zlib", level: 1 } }
      : {
          chunks: [1, 2],
          shards: [2, 4],
          compressors: [{ name: "gzip", configuration: { level: 1 } }],
        };
  const array = await createArray(new FsStore(dir), {
    path: "x",
    shape: [3, 4],
    dtype,
    fillValue: c.fill,
    zarrFormat,
    ...layout,
  } as ArrayOptions);
  await array.set(null, [...c.values, c.fill] as never);
  return array;
}

describe("zarr copy of every kind of data type", () => {
  it.each(CASES.flatMap((c) => [2, 3].map((f) => [`${c.label} from v${f}`, c, f] as const)))(
    "%s",
    async (_label, c, zarrFormat) => {
      const from = scratch();
      await source(from, c, zarrFormat as 2 | 3);
      // Read as any reader opens it.
      const original = await openArray(new FsStore(from), { path: "x" });
      const expected = jsonValues(original, (await original.get()).data);
      const other = zarrFormat === 2 ? "3" : "2";
      for (const args of [[], ["--format", other], ["--format", "3", "--chunks", "2,3"]]) {
        const to = scratch();
        const result = await runCli("copy", from, to, ...args);
        expect(result.stderr, args.join(" ")).toMatch(/^copied 2 nodes/);
        const copy = await openArray(new FsStore(to), { path: "x" });
        expect(copy.zarrFormat).toBe(
          args[1] === "2" || (args.length === 0 && zarrFormat === 2) ? 2 : 3,
        );
        // A v2 object array with a null fill value reads missing elements as null; v3 has no
        // null element, and its copy reads them as its fill value (as zarr-python 3 does).
        const nullFill = original.metadata.fillValueJson === null && copy.zarrFormat === 3;
        const copyFill = copy.dataType.toJsonElement(copy.fillValue as never);
        const want = nullFill ? expected.map((v) => (v === null ? copyFill : v)) : expected;
        expect(jsonValues(copy, (await copy.get()).data), args.join(" ")).toEqual(want);
        // v2 object arrays (vlen types) write a null fill value.
        if (copy.zarrFormat === zarrFormat || copy.dataType.itemSize > 0) {
          expect(copy.dataType.toJsonElement(copy.fillValue as never)).toEqual(
            original.dataType.toJsonElement(original.fillValue as never),
          );
        }
      }
    },
  );
});

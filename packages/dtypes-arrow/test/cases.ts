import type { ArrowField, ArrowType } from "@z/dtypes-arrow";

/** A field in JSON form. */
export function field(
  name: string,
  type: ArrowType,
  nullable = true,
  children: ArrowField[] = [],
): ArrowField {
  return { name, nullable, type, children };
}

const int = (bitWidth: 8 | 16 | 32 | 64, isSigned = true): ArrowType => ({
  name: "int",
  bitWidth,
  isSigned,
});
const item = (type: ArrowType, nullable = true) => field("item", type, nullable);

/** Every third-ish element is null in nullable cases. */
const nul = (i: number) => i % 5 === 3;

/** A type family: its field and element `i` (in the form reads return). */
export interface Case {
  label: string;
  field: ArrowField;
  make(i: number): unknown;
}

const TEXTS = ["", "é", "🚀 rocket", "a\0b", "日本語", "z"];

/** One case per type family of the issue (and a few variants), each with nulls where nullable. */
export const CASES: Case[] = [
  {
    label: "int8",
    field: field("v", int(8)),
    make: (i) => (nul(i) ? null : ((i * 37) % 256) - 128),
  },
  {
    label: "uint8",
    field: field("v", int(8, false)),
    make: (i) => (nul(i) ? null : (i * 37) % 256),
  },
  {
    label: "int16",
    field: field("v", int(16)),
    make: (i) => (nul(i) ? null : ((i * 7919) % 32768) - (i % 2) * 32768),
  },
  { label: "uint16", field: field("v", int(16, false)), make: (i) => (nul(i) ? null : 65535 - i) },
  {
    label: "int32",
    field: field("v", int(32)),
    make: (i) => (nul(i) ? null : i % 2 ? -(2 ** 31) + i : 2 ** 31 - 1 - i),
  },
  {
    label: "uint32",
    field: field("v", int(32, false)),
    make: (i) => (nul(i) ? null : 2 ** 32 - 1 - i),
  },
  {
    label: "int64",
    field: field("v", int(64)),
    make: (i) => (nul(i) ? null : i % 2 ? -(2n ** 63n) + BigInt(i) : BigInt(i) * 1_000_000_007n),
  },
  {
    label: "uint64",
    field: field("v", int(64, false)),
    make: (i) => (nul(i) ? null : 2n ** 64n - 1n - BigInt(i)),
  },
  {
    label: "int32 not nullable",
    field: field("v", int(32), false),
    make: (i) => i * 3 - 50,
  },
  {
    label: "float16",
    field: field("v", { name: "floatingpoint", precision: "HALF" }),
    make: (i) =>
      nul(i) ? null : ([Number.NaN, Number.POSITIVE_INFINITY, -0.5, 65504, 2 ** -24][i % 5] ?? i),
  },
  {
    label: "float32",
    field: field("v", { name: "floatingpoint", precision: "SINGLE" }),
    make: (i) => (nul(i) ? null : Math.fround(i * 1.1 - 3)),
  },
  {
    label: "float64",
    field: field("v", { name: "floatingpoint", precision: "DOUBLE" }),
    make: (i) =>
      nul(i) ? null : ([-0, Number.NaN, Number.NEGATIVE_INFINITY, 1e308, 5e-324][i % 5] ?? i / 7),
  },
  {
    label: "bool",
    field: field("v", { name: "bool" }),
    make: (i) => (nul(i) ? null : i % 3 === 0),
  },
  {
    label: "date32",
    field: field("v", { name: "date", unit: "DAY" }),
    make: (i) => (nul(i) ? null : 19000 + i),
  },
  {
    label: "date64",
    field: field("v", { name: "date", unit: "MILLISECOND" }),
    make: (i) => (nul(i) ? null : BigInt(i) * 86_400_000n),
  },
  {
    label: "time32[s]",
    field: field("v", { name: "time", unit: "SECOND", bitWidth: 32 }),
    make: (i) => (nul(i) ? null : i * 61),
  },
  {
    label: "time32[ms]",
    field: field("v", { name: "time", unit: "MILLISECOND", bitWidth: 32 }),
    make: (i) => (nul(i) ? null : i * 61_001),
  },
  {
    label: "time64[us]",
    field: field("v", { name: "time", unit: "MICROSECOND", bitWidth: 64 }),
    make: (i) => (nul(i) ? null : BigInt(i) * 1_000_001n),
  },
  {
    label: "time64[ns]",
    field: field("v", { name: "time", unit: "NANOSECOND", bitWidth: 64 }),
    make: (i) => (nul(i) ? null : (BigInt(i) * 86_399_999_999_999n) / 100n),
  },
  {
    label: "timestamp[s]",
    field: field("v", { name: "timestamp", unit: "SECOND" }),
    make: (i) => (nul(i) ? null : 1_700_000_000n + BigInt(i)),
  },
  {
    label: "timestamp[us, Europe/Paris]",
    field: field("v", { name: "timestamp", unit: "MICROSECOND", timezone: "Europe/Paris" }),
    make: (i) => (nul(i) ? null : 1_700_000_000_000_000n - BigInt(i) * 3_600_000_000n),
  },
  {
    label: "timestamp[ns, +05:30]",
    field: field("v", { name: "timestamp", unit: "NANOSECOND", timezone: "+05:30" }),
    make: (i) => (nul(i) ? null : -(2n ** 62n) + BigInt(i)),
  },
  {
    label: "duration[ms]",
    field: field("v", { name: "duration", unit: "MILLISECOND" }),
    make: (i) => (nul(i) ? null : BigInt(i) * -1234n),
  },
  {
    label: "duration[ns]",
    field: field("v", { name: "duration", unit: "NANOSECOND" }),
    make: (i) => (nul(i) ? null : 2n ** 63n - 1n - BigInt(i)),
  },
  {
    label: "interval[year_month]",
    field: field("v", { name: "interval", unit: "YEAR_MONTH" }),
    make: (i) => (nul(i) ? null : i - 7),
  },
  {
    label: "interval[day_time]",
    field: field("v", { name: "interval", unit: "DAY_TIME" }),
    make: (i) => (nul(i) ? null : { days: i, milliseconds: 7 - i * 1000 }),
  },
  {
    label: "interval[month_day_nano]",
    field: field("v", { name: "interval", unit: "MONTH_DAY_NANO" }),
    make: (i) => (nul(i) ? null : { months: i, days: 3 - i, nanoseconds: BigInt(i) * 10n ** 15n }),
  },
  {
    label: "decimal128(10, 2)",
    field: field("v", { name: "decimal", precision: 10, scale: 2, bitWidth: 128 }),
    make: (i) => (nul(i) ? null : ["-12345678.90", "0.00", "0.01", "99999999.99", "-0.50"][i % 5]),
  },
  {
    label: "decimal256(76, 10)",
    field: field("v", { name: "decimal", precision: 76, scale: 10, bitWidth: 256 }),
    make: (i) =>
      nul(i) ? null : `${i % 2 ? "-" : ""}${"9".repeat(66)}.${String(i).padStart(10, "0")}`,
  },
  {
    label: "decimal32(7, 3)",
    field: field("v", { name: "decimal", precision: 7, scale: 3, bitWidth: 32 }),
    make: (i) =>
      nul(i) ? null : `${i % 2 ? "-" : ""}${i}.${String((i * 7) % 1000).padStart(3, "0")}`,
  },
  {
    label: "decimal64(18, -2)",
    field: field("v", { name: "decimal", precision: 18, scale: -2, bitWidth: 64 }),
    make: (i) => (nul(i) ? null : `${(BigInt(i) + 1n) * 12345678900n}`),
  },
  {
    label: "fixedsizebinary[3]",
    field: field("v", { name: "fixedsizebinary", byteWidth: 3 }),
    make: (i) => (nul(i) ? null : new Uint8Array([i & 255, 255 - (i & 255), 7])),
  },
  {
    label: "utf8",
    field: field("v", { name: "utf8" }),
    make: (i) => (nul(i) ? null : TEXTS[i % TEXTS.length] + i),
  },
  {
    label: "largeutf8",
    field: field("v", { name: "largeutf8" }),
    make: (i) => (nul(i) ? null : TEXTS[(i + 2) % TEXTS.length]),
  },
  {
    label: "binary",
    field: field("v", { name: "binary" }),
    make: (i) => (nul(i) ? null : Uint8Array.from({ length: i % 4 }, (_, k) => (i * 31 + k) & 255)),
  },
  {
    label: "largebinary",
    field: field("v", { name: "largebinary" }),
    make: (i) => (nul(i) ? null : Uint8Array.from({ length: (i * 3) % 7 }, (_, k) => k)),
  },
  {
    // Views: up to 12 bytes inline, longer ones in the data buffer (both kinds here).
    label: "utf8view",
    field: field("v", { name: "utf8view" }),
    make: (i) =>
      nul(i)
        ? null
        : i % 2
          ? TEXTS[i % TEXTS.length]
          : `${TEXTS[i % TEXTS.length]} is longer, #${i}`,
  },
  {
    label: "binaryview",
    field: field("v", { name: "binaryview" }),
    make: (i) =>
      nul(i) ? null : Uint8Array.from({ length: (i * 5) % 29 }, (_, k) => (i * 7 + k) & 255),
  },
  {
    label: "list<int32>",
    field: field("v", { name: "list" }, true, [item(int(32))]),
    make: (i) =>
      nul(i) ? null : Array.from({ length: i % 4 }, (_, k) => (k === 1 ? null : i * 10 + k)),
  },
  {
    label: "largelist<utf8>",
    field: field("v", { name: "largelist" }, true, [item({ name: "utf8" }, false)]),
    make: (i) => (nul(i) ? null : Array.from({ length: (i + 1) % 3 }, (_, k) => `${i}:${k}`)),
  },
  {
    label: "fixedsizelist<float64>[3]",
    field: field("v", { name: "fixedsizelist", listSize: 3 }, true, [
      item({ name: "floatingpoint", precision: "DOUBLE" }),
    ]),
    make: (i) => (nul(i) ? null : [i, i % 2 ? null : -i, 0.5]),
  },
  {
    label: "list<list<int8>>",
    field: field("v", { name: "list" }, true, [
      field("item", { name: "list" }, true, [item(int(8))]),
    ]),
    make: (i) =>
      nul(i) ? null : Array.from({ length: i % 3 }, (_, k) => (k === 2 ? null : [k, k - 5])),
  },
  {
    label: "struct",
    field: field("v", { name: "struct" }, true, [
      field("a", int(32), false),
      field("b", { name: "utf8" }),
      field("c", { name: "list" }, true, [item({ name: "bool" })]),
    ]),
    make: (i) =>
      nul(i)
        ? null
        : {
            a: i,
            b: i % 2 ? null : `b${i}`,
            c: i % 4 === 1 ? null : [true, false].slice(0, i % 3),
          },
  },
  {
    label: "map<utf8, int64>",
    field: field("v", { name: "map", keysSorted: false }, true, [
      field("entries", { name: "struct" }, false, [
        field("key", { name: "utf8" }, false),
        field("value", int(64)),
      ]),
    ]),
    make: (i) =>
      nul(i)
        ? null
        : Array.from({ length: i % 3 }, (_, k) => [`k${k}`, k === 1 ? null : BigInt(i * k)]),
  },
  {
    label: "sparse union",
    field: field("v", { name: "union", mode: "SPARSE", typeIds: [0, 5] }, true, [
      field("i", int(32)),
      field("s", { name: "utf8" }),
    ]),
    make: (i) => (nul(i) ? null : i % 2 ? { typeId: 0, value: i } : { typeId: 5, value: `s${i}` }),
  },
  {
    label: "dense union",
    field: field("v", { name: "union", mode: "DENSE", typeIds: [3, 1] }, true, [
      field("n", int(16)),
      field("p", { name: "struct" }, true, [
        field("x", { name: "floatingpoint", precision: "DOUBLE" }, false),
      ]),
    ]),
    make: (i) =>
      nul(i) ? null : i % 3 ? { typeId: 3, value: -i } : { typeId: 1, value: { x: i / 2 } },
  },
  {
    label: "dictionary<int8, utf8>",
    field: {
      ...field("v", { name: "utf8" }),
      dictionary: {
        id: 0,
        indexType: { name: "int", bitWidth: 8, isSigned: true },
        isOrdered: false,
      },
    },
    make: (i) => (nul(i) ? null : ["red", "green", "blue"][i % 3]),
  },
  {
    label: "dictionary<uint32, list<int32>>",
    field: {
      ...field("v", { name: "list" }, true, [item(int(32))]),
      dictionary: {
        id: 7,
        indexType: { name: "int", bitWidth: 32, isSigned: false },
        isOrdered: true,
      },
    },
    make: (i) => (nul(i) ? null : [[1, 2], [], [null]][i % 3]),
  },
  {
    label: "struct with a dictionary member",
    field: field("v", { name: "struct" }, false, [
      {
        ...field("cat", { name: "utf8" }),
        dictionary: {
          id: 1,
          indexType: { name: "int", bitWidth: 16, isSigned: true },
          isOrdered: false,
        },
      },
      field("n", int(8), false),
    ]),
    make: (i) => ({ cat: nul(i) ? null : `c${i % 4}`, n: i % 100 }),
  },
  { label: "null", field: field("v", { name: "null" }), make: () => null },
  {
    label: "list<null>",
    field: field("v", { name: "list" }, false, [item({ name: "null" })]),
    make: (i) => Array.from({ length: i % 3 }, () => null),
  },
];

/** Elements 0..n-1 of a case. */
export function elements(c: Case, n: number, offset = 0): unknown[] {
  return Array.from({ length: n }, (_, i) => c.make(i + offset));
}

import {
  type ArrayOptions,
  arrowDataType,
  createArray,
  loadDataTypesFor,
  MemoryStore,
  resolveDataTypeV3,
  slice,
  structType,
} from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzz, InvariantError } from "./lib/harness.js";
import { buildValue, type ValueSpec, valueSpec } from "./lib/js-values.js";

// Values of every JavaScript type written with `set` into arrays of every data type: success
// (and the array reads back) or a typed error.

const arrow = (type: unknown, children: unknown[] = []) =>
  arrowDataType({ name: "v", nullable: true, type, children } as never);

// The datetime types load on first use; the list below resolves them as the file loads (the
// types named by string load when their arrays are created).
await loadDataTypesFor({ data_type: "numpy.datetime64" });

/** One array per data type (v3 names, v2 type strings, struct, Arrow, object). */
const DTYPES: { label: string; options: Omit<ArrayOptions, "shape" | "chunks"> }[] = [
  ...[
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "string",
    "bytes",
  ].map((dtype) => ({ label: dtype, options: { dtype, compressors: null } })),
  {
    label: "datetime64[s]",
    options: {
      dtype: resolveDataTypeV3({
        name: "numpy.datetime64",
        configuration: { unit: "s", scale_factor: 1 },
      }),
    },
  },
  {
    label: "timedelta64[ms]",
    options: {
      dtype: resolveDataTypeV3({
        name: "numpy.timedelta64",
        configuration: { unit: "ms", scale_factor: 1 },
      }),
    },
  },
  {
    label: "struct",
    options: {
      dtype: structType([
        { name: "x", dataType: resolveDataTypeV3("float32") },
        { name: "m", dataType: resolveDataTypeV3("int16"), shape: [2] },
      ]),
    },
  },
  { label: "v2 <U4", options: { dtype: "<U4", zarrFormat: 2 } },
  { label: "v2 |S4", options: { dtype: "|S4", zarrFormat: 2 } },
  { label: "v2 |V3", options: { dtype: "|V3", zarrFormat: 2 } },
  { label: "v2 >i8", options: { dtype: ">i8", zarrFormat: 2 } },
  { label: "v2 <M8[ns]", options: { dtype: "<M8[ns]", zarrFormat: 2 } },
  { label: "v2 |O json2", options: { dtype: "|O", zarrFormat: 2, serializer: { id: "json2" } } },
  {
    label: "v2 |O vlen-bytes",
    options: { dtype: "|O", zarrFormat: 2, serializer: { id: "vlen-bytes" } },
  },
  {
    label: "arrow int64",
    options: {
      dtype: arrow({ name: "int", bitWidth: 64, isSigned: true }),
      serializer: "z.arrow-ipc",
    },
  },
  { label: "arrow utf8", options: { dtype: arrow({ name: "utf8" }), serializer: "z.arrow-ipc" } },
  { label: "arrow bool", options: { dtype: arrow({ name: "bool" }), serializer: "z.arrow-ipc" } },
  {
    label: "arrow list<float32>",
    options: {
      dtype: arrow({ name: "list" }, [
        {
          name: "item",
          nullable: true,
          type: { name: "floatingpoint", precision: "SINGLE" },
          children: [],
        },
      ]),
      serializer: "z.arrow-ipc",
    },
  },
];

/** Selections of a 4-element array: everything, a slice, one element, a stepped and a reversed slice. */
const SELECTIONS = [
  null,
  [slice(0, 2)],
  [1],
  [-1],
  [slice(0, 4, 2)],
  [slice(3, 0, -1)],
  [slice(2, 2)],
];

interface ValueCase {
  dtype: number;
  selection: number;
  value: ValueSpec;
}

describe("fuzz: values of every JavaScript type through set", () => {
  it(`values: ${DTYPES.length} data types`, async () => {
    const summary = await fuzz({
      name: "values",
      arbitrary: fc.record({
        dtype: fc.nat({ max: DTYPES.length - 1 }),
        selection: fc.nat({ max: SELECTIONS.length - 1 }),
        value: valueSpec,
      }),
      async run(input: ValueCase) {
        const store = new MemoryStore();
        const arr = await createArray(store, {
          shape: [4],
          chunks: [2],
          ...DTYPES[input.dtype].options,
        });
        await arr.set(SELECTIONS[input.selection] as never, buildValue(input.value) as never);
        // What set accepted must read back.
        try {
          const back = await arr.get();
          if (back.shape[0] !== 4)
            throw new InvariantError(`read back shape ${JSON.stringify(back.shape)}`);
        } catch (error) {
          if (error instanceof InvariantError) throw error;
          throw new InvariantError(`set succeeded but the array no longer reads: ${error}`);
        }
      },
      async warmUp() {
        for (const { options } of DTYPES) {
          const arr = await createArray(new MemoryStore(), { shape: [4], chunks: [2], ...options });
          await arr.get();
        }
      },
      describe: (input: ValueCase) => ({
        dtype: DTYPES[input.dtype].label,
        selection: JSON.stringify(SELECTIONS[input.selection]),
        value: input.value,
      }),
    });
    expect(summary.failureCount, summary.report).toBe(0);
  });
});

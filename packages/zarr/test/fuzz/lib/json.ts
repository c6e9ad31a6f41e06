import fc from "fast-check";
import { type ByteMutation, byteMutation, mutateBytes } from "./bytes.js";

/**
 * JSON-level mutations of metadata documents: a value somewhere in the document (reached by a
 * walk of numbers, each picking a child modulo the count) is replaced by a hostile value,
 * deleted, wrapped or given a sibling; a raw literal that JSON.stringify cannot write (1e400,
 * 2^64 as an integer, deep nesting) goes in as text. Byte mutations of the serialised text
 * (truncation, bit flips) may follow.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A hostile value, described (deep and long values are built when applied, not generated). */
export type HostileValue =
  | { kind: "json"; value: Json }
  | { kind: "raw"; text: string }
  | { kind: "deep"; depth: number; container: "array" | "object" }
  | { kind: "long"; length: number; char: string }
  | { kind: "wide"; length: number; item: Json }
  | { kind: "fragment"; index: number };

const HOSTILE_NUMBERS: Json[] = [
  2 ** 64,
  2 ** 63,
  2 ** 53 + 2,
  2 ** 32,
  2 ** 31,
  2 ** 31 - 1,
  -1,
  -(2 ** 31),
  -(2 ** 63),
  0,
  -0,
  0.5,
  1.5,
  -0.5,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER,
];

const HOSTILE_STRINGS: Json[] = [
  "NaN",
  "Infinity",
  "-Infinity",
  "nan",
  "NaT",
  "",
  "0x7fc00000",
  "0xffffffffffffffff",
  "0x",
  "0xzz",
  "18446744073709551616",
  "-1",
  "\u0000",
  "\ud800",
  "__proto__",
  "constructor",
  "../../etc/passwd",
  "/abs",
  "a\\b",
  "<i8",
  ">f8",
  "|O",
  "|V0",
  "<U0",
  "|S0",
  "<M8[fs]",
  "<m8[10000000000000000000s]",
  "int32",
  "float64",
  "string",
  "bytes",
  "bool",
  "regular",
  "default",
  "v2",
  "C",
  "F",
  "little",
  "big",
  "end",
  "start",
  "gzip",
  "zstd",
  "blosc",
  "bytes",
  "sharding_indexed",
  "transpose",
  "crc32c",
];

const HOSTILE_JSON: Json[] = [
  ...HOSTILE_NUMBERS,
  ...HOSTILE_STRINGS,
  null,
  true,
  false,
  {},
  [],
  [[]],
  [null],
  [-1],
  [0],
  [2 ** 53],
  [2 ** 31, 2 ** 31, 2 ** 31],
  [
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1,
  ],
  { __proto__: null, polluted: true } as never,
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { name: "bytes" },
  { name: "gzip", configuration: { level: 2 ** 64 } },
  { name: "regular", configuration: { chunk_shape: [0] } },
  { name: "regular", configuration: { chunk_shape: [2 ** 40] } },
  { must_understand: false },
  { must_understand: true },
  { id: "blosc", cname: "nonsense", clevel: -1, shuffle: 7 },
  { id: "zlib", level: 10 },
  { id: "delta", dtype: "<q9" },
];

/** Raw JSON text: numbers JSON.stringify cannot write, and duplicate keys. */
const RAW_LITERALS = [
  "1e400",
  "-1e400",
  "18446744073709551616",
  "18446744073709551615",
  "-9223372036854775809",
  "9223372036854775807",
  `1${"0".repeat(400)}`,
  "1e-400",
  "-0.0",
  "0.1e1",
  "1.0",
  '{"a": 1, "a": 2}',
];

/** A hostile value. `fragments` are real pieces of documents (codecs, data types, grids). */
export function hostileValue(fragmentCount: number): fc.Arbitrary<HostileValue> {
  // Large values (deep, long, wide) cost milliseconds each: they come rarely, the cheap
  // hostile ones often.
  const options: fc.WeightedArbitrary<HostileValue>[] = [
    {
      weight: 8,
      arbitrary: fc.record({
        kind: fc.constant("json" as const),
        value: fc.constantFrom(...HOSTILE_JSON),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("json" as const),
        value: fc.oneof(
          fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
          fc.double({ noNaN: true }),
          fc.string({ maxLength: 12 }),
        ),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant("json" as const),
        value: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>,
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("raw" as const),
        text: fc.constantFrom(...RAW_LITERALS),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant("deep" as const),
        depth: fc.oneof(
          { weight: 3, arbitrary: fc.integer({ min: 20, max: 200 }) },
          { weight: 1, arbitrary: fc.constantFrom(1_000, 10_000, 100_000) },
        ),
        container: fc.constantFrom("array" as const, "object" as const),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("long" as const),
        length: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(300, 5_000) },
          { weight: 1, arbitrary: fc.constantFrom(100_000, 1_000_000) },
        ),
        char: fc.constantFrom("a", "é", "🚀", "\u0000", "9", "["),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant("wide" as const),
        length: fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(33, 64, 1_000) },
          { weight: 1, arbitrary: fc.constant(100_000) },
        ),
        item: fc.constantFrom<Json>(1, 2 ** 31, 0, "x", null, [1], { name: "bytes" }),
      }),
    },
  ];
  if (fragmentCount > 0) {
    options.push({
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant("fragment" as const),
        index: fc.nat({ max: fragmentCount - 1 }),
      }),
    });
  }
  return fc.oneof(...options);
}

/** One JSON-level edit at the end of a walk. */
export interface JsonEdit {
  walk: number[];
  action: "replace" | "delete" | "add" | "wrap" | "rename";
  value: HostileValue;
  /** For `add`: a field name (a known one, or any). */
  field: string;
}

const FIELD_NAMES = [
  "zarr_format",
  "node_type",
  "shape",
  "chunks",
  "dtype",
  "data_type",
  "fill_value",
  "order",
  "filters",
  "compressor",
  "codecs",
  "chunk_grid",
  "chunk_key_encoding",
  "dimension_separator",
  "dimension_names",
  "attributes",
  "storage_transformers",
  "consolidated_metadata",
  "metadata",
  "configuration",
  "name",
  "must_understand",
  "index_codecs",
  "index_location",
  "chunk_shape",
  "__proto__",
  "constructor",
];

/** An edit. */
export function jsonEdit(fragmentCount: number): fc.Arbitrary<JsonEdit> {
  return fc.record({
    walk: fc.array(fc.nat(), { maxLength: 7 }),
    action: fc.constantFrom(
      "replace" as const,
      "replace" as const,
      "replace" as const,
      "delete" as const,
      "add" as const,
      "wrap" as const,
      "rename" as const,
    ),
    value: hostileValue(fragmentCount),
    field: fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 8 })),
  });
}

/** A whole document mutation: JSON edits, then byte mutations of the text. */
export interface DocumentMutation {
  edits: JsonEdit[];
  bytes: ByteMutation[];
}

/** A document mutation: mostly JSON edits, sometimes byte damage of the text as well. */
export function documentMutation(fragmentCount: number): fc.Arbitrary<DocumentMutation> {
  return fc.record({
    edits: fc.array(jsonEdit(fragmentCount), { minLength: 1, maxLength: 3 }),
    bytes: fc.oneof(
      { weight: 4, arbitrary: fc.constant<ByteMutation[]>([]) },
      { weight: 1, arbitrary: fc.array(byteMutation, { minLength: 1, maxLength: 2 }) },
    ),
  });
}

const MARK = "\u0001fuzz-raw-";

/** Builds a hostile value; raw text is returned as a marker replaced after stringify. */
function build(value: HostileValue, raws: string[], fragments: readonly unknown[]): Json {
  switch (value.kind) {
    case "json":
      return structuredClone(value.value);
    case "fragment":
      return structuredClone(fragments[value.index] as Json);
    case "raw":
      raws.push(value.text);
      return `${MARK}${raws.length - 1}`;
    case "deep": {
      const open = value.container === "array" ? "[" : '{"a":';
      const close = value.container === "array" ? "]" : "}";
      raws.push(`${open.repeat(value.depth)}1${close.repeat(value.depth)}`);
      return `${MARK}${raws.length - 1}`;
    }
    case "long":
      return value.char.repeat(value.length);
    case "wide":
      return Array.from({ length: value.length }, () => structuredClone(value.item));
  }
}

function isContainer(v: unknown): v is Json[] | Record<string, Json> {
  return v !== null && typeof v === "object";
}

/** Applies one edit to a parsed document (in place; the root is returned, maybe replaced). */
function applyEdit(
  root: Json,
  edit: JsonEdit,
  raws: string[],
  fragments: readonly unknown[],
): Json {
  // Walk down: each number picks a child, and its parity decides whether to stop there.
  let parent: Json[] | Record<string, Json> | undefined;
  let key: string | number | undefined;
  let node: Json = root;
  for (const step of edit.walk) {
    if (!isContainer(node)) break;
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node;
    key = keys[step % keys.length];
    node = (node as Record<string | number, Json>)[key];
    if (step % 5 === 4) break;
  }
  const fresh = () => build(edit.value, raws, fragments);
  const put = (value: Json) => {
    if (parent === undefined || key === undefined) return value;
    (parent as Record<string | number, Json>)[key] = value;
    return root;
  };
  switch (edit.action) {
    case "replace":
      return put(fresh());
    case "wrap":
      return put(edit.walk.length % 2 ? [node] : { value: node });
    case "delete":
      if (parent === undefined || key === undefined) return fresh();
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
      return root;
    case "add":
      if (isContainer(node) && !Array.isArray(node)) {
        Object.defineProperty(node, edit.field, {
          value: fresh(),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      } else if (Array.isArray(node)) node.push(fresh());
      return root;
    case "rename":
      if (parent !== undefined && !Array.isArray(parent) && typeof key === "string") {
        delete parent[key];
        Object.defineProperty(parent, edit.field, {
          value: node,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return root;
  }
}

/** The mutated document as bytes. */
export function mutateDocument(
  text: string,
  mutation: DocumentMutation,
  fragments: readonly unknown[] = [],
): Uint8Array {
  let doc = JSON.parse(text) as Json;
  const raws: string[] = [];
  for (const edit of mutation.edits) doc = applyEdit(doc, edit, raws, fragments);
  let out = JSON.stringify(doc);
  if (raws.length > 0) {
    out = out.replace(/"\\u0001fuzz-raw-(\d+)"/g, (_, i) => raws[Number(i)]);
  }
  let bytes: Uint8Array = new TextEncoder().encode(out);
  for (const m of mutation.bytes) bytes = mutateBytes(bytes, m);
  return bytes;
}

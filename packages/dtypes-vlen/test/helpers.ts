import { readFileSync } from "node:fs";
import { type ArrayToBytesCodec, type ChunkSpec, resolveCodec } from "@z/codecs";
import { JsonFloat, parsePythonJson, stringDataType } from "@z/dtypes-vlen";
import { type DataType, resolveDataTypeV2 } from "@z/metadata";
import { product } from "@z/ndarray";
import { fixturePath } from "@z/test-utils";

/** The values of `expected/numcodecs/<codec>/array.NN.json`, floats marked (1.0 stays a float). */
export function expectedGoldenValues(
  codec: string,
  arrayFile: string,
): { values: unknown[]; dtype: string; shape: number[] } {
  const name = arrayFile.replace(/\.npy$/, ".json");
  const text = readFileSync(fixturePath("expected", "numcodecs", codec, name), "utf8");
  const doc = parsePythonJson(text, { markFloats: true }) as {
    values: unknown[];
    dtype: string;
    shape: number[];
  };
  return doc;
}

/** A Python dict's repr (how the fixtures' JSON dump wrote dict elements) as an object. */
function pythonDictRepr(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith("{'")) return undefined;
  return JSON.parse(text.replaceAll("'", '"'));
}

/** An expected value in our `zarr get --json` encoding (bytes as {base64}, dicts as objects). */
export function normaliseExpected(value: unknown): unknown {
  if (value instanceof JsonFloat) return value.value;
  if (Array.isArray(value)) return value.map(normaliseExpected);
  if (typeof value === "string") return pythonDictRepr(value) ?? value;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0][0] === "b64") return { base64: entries[0][1] };
    return Object.fromEntries(entries.map(([k, v]) => [k, normaliseExpected(v)]));
  }
  return value;
}

/** An expected value as the element to encode: NaN and bytes restored, floats kept marked. */
export function toInputElement(value: unknown): unknown {
  if (value === "NaN") return Number.NaN;
  if (value === "Infinity") return Number.POSITIVE_INFINITY;
  if (value === "-Infinity") return Number.NEGATIVE_INFINITY;
  if (typeof value === "string") {
    const dict = pythonDictRepr(value);
    return dict
      ? Object.fromEntries(Object.entries(dict).map(([k, v]) => [k, toInputElement(v)]))
      : value;
  }
  if (Array.isArray(value)) return value.map(toInputElement);
  if (value !== null && typeof value === "object" && !(value instanceof JsonFloat)) {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0][0] === "b64")
      return Uint8Array.from(Buffer.from(entries[0][1] as string, "base64"));
  }
  return value;
}

/** The data type of a NumPy dtype string, or undefined when none is registered (e.g. `<U3`). */
export function dataTypeOf(dtype: string): DataType | undefined {
  try {
    return resolveDataTypeV2(dtype).dataType;
  } catch {
    return undefined;
  }
}

/** Builds a numcodecs object codec for chunks of `shape` and `dataType`. */
export function numcodecsCodec(
  config: Record<string, unknown>,
  shape: number[],
  dataType: DataType,
): { codec: ArrayToBytesCodec; spec: ChunkSpec } {
  const { id, ...configuration } = config;
  const spec: ChunkSpec = { shape, dataType, fillValue: dataType.defaultFill };
  const codec = resolveCodec(
    { name: `numcodecs.${id}`, configuration: configuration as never, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  );
  if (codec?.kind !== "array_to_bytes")
    throw new Error(`numcodecs.${id} is not an array-to-bytes codec`);
  return { codec, spec };
}

/** A 1-d string spec of `n` elements. */
export function stringSpec(n: number): ChunkSpec {
  return { shape: [n], dataType: stringDataType, fillValue: "" };
}

/** Element count of a shape. */
export const count = (shape: number[]): number => product(shape);

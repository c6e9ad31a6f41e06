import type { Chunk, DataType, ZarrArray } from "@z/zarr";
import { floatBitsOf, shortenJsonFloats } from "./float-digits.js";
import type { Output } from "./output.js";

/** How many elements are serialised per write, so huge outputs stream instead of piling up. */
const BATCH = 65_536;

/**
 * The `dtype` of `zarr get --json`: the v3 `data_type` (a name or an object), or the v2
 * `dtype` as the metadata writes it.
 */
export function dtypeJson(array: ZarrArray): unknown {
  return array.metadata.v2 ? array.metadata.v2.dtype : array.metadata.dataType.toV3();
}

/** The `fill_value` of `zarr get --json`, encoded like the values (v2 `null` stays null). */
export function fillValueJson(array: ZarrArray): unknown {
  if (array.metadata.fillValueJson === null) return null;
  const { dataType, fillValue } = array.metadata;
  return shortenJsonFloats(dataType.toJsonElement(fillValue), floatBitsOf(dataType));
}

/**
 * Writes the one JSON object `zarr get --json` prints: shape, dtype, fill_value and the values
 * flattened in C order, each encoded as the CLI README describes (finite numbers as numbers;
 * "NaN", "Infinity", "-Infinity"; integers beyond 2^53 as decimal strings; ...), float32 and
 * float16 values with the shortest digits that read back as the same value.
 */
export function writeJsonResult(output: Output, array: ZarrArray, result: Chunk): void {
  const head = {
    shape: result.shape,
    dtype: dtypeJson(array),
    fill_value: fillValueJson(array),
  };
  const prefix = jsonText(head).slice(0, -1);
  output.out(`${prefix},"values":[`);
  const dataType: DataType = array.metadata.dataType;
  const bits = floatBitsOf(dataType);
  const n = result.shape.reduce((a, b) => a * b, 1);
  for (let start = 0; start < n; start += BATCH) {
    const end = Math.min(n, start + BATCH);
    const parts: string[] = [];
    for (let i = start; i < end; i++)
      parts.push(
        jsonText(
          shortenJsonFloats(dataType.toJsonElement(dataType.getElement(result.data, i)), bits),
        ),
      );
    output.out((start > 0 ? "," : "") + parts.join(","));
  }
  output.out("]}\n");
}

/**
 * JSON text of a value, as `JSON.stringify` writes it except that -0 keeps its sign as `-0.0`
 * (`JSON.stringify` writes `0`, and Python's json module reads `-0` as the integer 0).
 */
export function jsonText(value: unknown): string {
  if (Object.is(value, -0)) return "-0.0";
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

// The fill value JSON helpers, in a file of its own so that a module needing only these does not
// load numeric.ts with them (first-load size: packages/zarr/test/bundlers/sizes.test.ts).

import { formatValue } from "@z/errors";
import { halfToNumber } from "@z/ndarray";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";

/** Parses a float fill value: a number, "NaN", "Infinity", "-Infinity" or a "0x..." bit pattern. */
export function parseFloatFill(json: JsonValue, itemSize: number, typeName: string): number {
  if (typeof json === "number") return json;
  if (typeof json === "bigint") return Number(json);
  if (json === "NaN") return Number.NaN;
  if (json === "Infinity") return Number.POSITIVE_INFINITY;
  if (json === "-Infinity") return Number.NEGATIVE_INFINITY;
  if (typeof json === "string" && /^0x[0-9a-fA-F]+$/.test(json)) {
    if (json.length !== 2 + itemSize * 2) {
      throw new FillValueError(
        `Fill value ${json} for ${typeName} must have exactly ${itemSize * 2} hex digits`,
      );
    }
    return floatFromBits(BigInt(json), itemSize);
  }
  throw new FillValueError(
    `Invalid fill value ${formatValue(json)} for ${typeName}: expected a number, "NaN", "Infinity", "-Infinity" or a hex bit pattern like "0x7fc00000"`,
  );
}

function floatFromBits(bits: bigint, itemSize: number): number {
  if (itemSize === 2) return halfToNumber(Number(bits));
  const view = new DataView(new ArrayBuffer(8));
  if (itemSize === 4) {
    view.setUint32(0, Number(bits));
    return view.getFloat32(0);
  }
  view.setBigUint64(0, bits);
  return view.getFloat64(0);
}

/** The JSON form of a float: a number, or one of the strings for non-finite values. */
export function floatToJson(value: number): JsonValue {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "Infinity";
  if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
  return value;
}

/** The bits of the quiet NaN every runtime produces, per float width. */
const CANONICAL_NAN: Record<number, bigint> = { 4: 0x7fc00000n, 8: 0x7ff8000000000000n };

/**
 * The metadata form of a float fill value. A NaN with another payload than the usual quiet NaN
 * is written as its hex bit pattern in v3 (the only form that keeps it; v2 has just `"NaN"`), so
 * that what a reader fills in is what the writer meant. Half floats keep `"NaN"`: their
 * container cannot carry a payload where the runtime lacks Float16Array.
 */
export function floatFillToJson(value: number, itemSize: number, format: 2 | 3): JsonValue {
  const canonical = CANONICAL_NAN[itemSize];
  if (format === 3 && Number.isNaN(value) && canonical !== undefined) {
    const view = new DataView(new ArrayBuffer(8));
    if (itemSize === 4) view.setFloat32(0, value);
    else view.setFloat64(0, value);
    const bits = itemSize === 4 ? BigInt(view.getUint32(0)) : view.getBigUint64(0);
    if (bits !== canonical) return `0x${bits.toString(16).padStart(2 * itemSize, "0")}`;
  }
  return floatToJson(value);
}

/** The JSON form of an integer element: a number when exact, otherwise a decimal string. */
export function integerToJson(value: number | bigint): JsonValue {
  if (typeof value === "bigint") {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value.toString();
  }
  return value;
}

// Shared inside the @z packages, not public: the fill value JSON helpers, kept out of numeric.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
import { FillValueError } from "../errors.js";
import { formatValue } from "../format-value.js";
import type { JsonValue } from "../json.js";
import { halfToNumber } from "./float16.js";

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

/** The JSON form of an integer element: a number when exact, otherwise a decimal string. */
export function integerToJson(value: number | bigint): JsonValue {
  if (typeof value === "bigint") {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value.toString();
  }
  return value;
}

// Registers every fixed-size data type beyond the core numeric ones: complex, datetime64 and
// timedelta64, S / U / V strings and raw bytes, and structured records. They load on first use:
// loadDataTypes() (lazy-load.ts) imports register-lazy.ts, which calls
// registerFixedSizeDataTypes() once.
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json-object.js";
import { complex64, complex128 } from "./complex.js";
import { parseDateTimeV2, parseDateTimeV3 } from "./datetime-parse.js";
import { InvalidDataTypeError } from "./dtype-errors.js";
import { NullTerminatedBytesType } from "./fixed-bytes.js";
import { lengthBytesOf, lengthOfTypestr } from "./fixed-bytes-internal.js";
import { FixedUnicodeType } from "./fixed-unicode.js";
import { RawBytesType } from "./raw.js";
import { resolveDataTypeV2, resolveDataTypeV3 } from "./registry.js";
import { addBuiltinDataType, type V2DataType } from "./registry-tables.js";
import { parseStructV2, parseStructV3, structEndian } from "./struct-json.js";
import type { DataType, Endian } from "./types.js";

const V2_COMPLEX = /^([<>|=]?)c(8|16)$/;
const V2_FLEXIBLE = /^([<>|=]?)([SUV])(\d+)$/;
const V3_RAW = /^r(\d+)$/;

const orderOf = (char: string): Endian => (char === ">" ? "big" : "little");

function resolveV2(json: JsonValue): V2DataType | undefined {
  if (Array.isArray(json)) {
    const dataType = parseStructV2(json, (typestr) =>
      resolveDataTypeV2(typestr, "a structured dtype field"),
    );
    return { dataType, endian: structEndian(dataType) };
  }
  if (typeof json !== "string") return undefined;
  const complex = V2_COMPLEX.exec(json);
  if (complex)
    return { dataType: complex[2] === "8" ? complex64 : complex128, endian: orderOf(complex[1]) };
  const flexible = V2_FLEXIBLE.exec(json);
  if (flexible) {
    const [, order, char, digits] = flexible;
    const length = lengthOfTypestr(digits, json, char === "U" ? 4 : 1);
    const dataType: DataType =
      char === "S"
        ? new NullTerminatedBytesType(length)
        : char === "U"
          ? new FixedUnicodeType(length)
          : new RawBytesType(length);
    return { dataType, endian: orderOf(order) };
  }
  return parseDateTimeV2(json);
}

function resolveV3(json: JsonValue): DataType | undefined {
  if (typeof json === "string") {
    const raw = V3_RAW.exec(json);
    if (!raw) return undefined;
    const bits = Number(raw[1]);
    if (!Number.isSafeInteger(bits) || bits < 8 || bits % 8 !== 0) {
      throw new InvalidDataTypeError(
        `data_type ${JSON.stringify(json)}: raw bits must be a positive multiple of 8`,
      );
    }
    return new RawBytesType(bits / 8, "r");
  }
  if (!isJsonObject(json)) return undefined;
  switch (json.name) {
    case "null_terminated_bytes":
      return new NullTerminatedBytesType(lengthBytesOf(json));
    case "fixed_length_utf32":
      return new FixedUnicodeType(lengthBytesOf(json, 4) / 4);
    case "raw_bytes":
      return new RawBytesType(lengthBytesOf(json), "raw_bytes");
    default:
      return (
        parseDateTimeV3(json) ??
        parseStructV3(json, (field) => resolveDataTypeV3(field, "a struct field"))
      );
  }
}

/**
 * Registers the fixed-size data types (called once, by register-lazy.ts).
 * @example
 * ```ts
 * // Runs once when an array's metadata first names one (or on loadDataTypes()); then:
 * await createArray(store, { zarrFormat: 2, shape: [3], dtype: "<U8" }); // fixed-length unicode
 * await createArray(store, { path: "t", shape: [3], dtype: "<M8[s]", zarrFormat: 2 }); // datetime64
 * ```
 * @category Data types
 */
export function registerFixedSizeDataTypes(): void {
  addBuiltinDataType(complex64 as DataType);
  addBuiltinDataType(complex128 as DataType);
  addBuiltinDataType({ v2: resolveV2, v3: resolveV3 });
}

import { DATETIME_UNITS, type JsonValue } from "@z/zarr";

/** A v2 `dtype` as zarr-python 3.1 writes it in v3 metadata, with what its codecs need. */
export interface MigratedDataType {
  /** The v3 `data_type`: a name, or a name with a configuration. */
  dataType: JsonValue;
  /**
   * The `bytes` codec's `endian`, or null for types without a byte order (one-byte numbers,
   * bool, byte strings, raw bytes, structured records), whose `bytes` codec has no configuration.
   */
  endian: "little" | "big" | null;
  /** The size of one element in bytes (blosc's `typesize`). */
  itemSize: number;
  /** How fill values of this type are encoded. */
  fill: FillKind;
}

/** How a fill value is written: its v2 JSON and its v3 JSON differ only for byte strings. */
export type FillKind =
  | "int"
  | "float"
  | "complex"
  | "bool"
  | "null-terminated-bytes"
  | "unicode"
  | "raw-bytes"
  | "time"
  | "structured";

/** A v2 data type zarr-python 3.1 cannot migrate, with the reason. */
export class UnmigratableDataType extends Error {}

const NUMERIC: Record<string, string> = {
  b1: "bool",
  i1: "int8",
  i2: "int16",
  i4: "int32",
  i8: "int64",
  u1: "uint8",
  u2: "uint16",
  u4: "uint32",
  u8: "uint64",
  f2: "float16",
  f4: "float32",
  f8: "float64",
  c8: "complex64",
  c16: "complex128",
};

/** NumPy's time units; a v2 type names a unit explicitly, so "generic" is not one of them. */
const TIME_UNITS = new Set<string>(DATETIME_UNITS.filter((unit) => unit !== "generic"));

/** A multi-byte type's order: ">" is big-endian; "<", "=" and "|" are read as little-endian. */
const byteOrder = (prefix: string): "little" | "big" => (prefix === ">" ? "big" : "little");

function fillKind(code: string): FillKind {
  if (code === "b1") return "bool";
  if (code[0] === "f") return "float";
  if (code[0] === "c") return "complex";
  return "int";
}

/** One scalar (non-structured) v2 type string. */
function scalarType(dtype: string): MigratedDataType {
  const match = /^([<>|=])([a-zA-Z])(\d*)(?:\[(\d*)([A-Za-zμ]+)\])?$/.exec(dtype);
  if (!match)
    throw new UnmigratableDataType(
      `the data type ${JSON.stringify(dtype)} is not a NumPy type string`,
    );
  const [, prefix, kind, digits, scale, unit] = match;
  const size = Number(digits);
  if (kind === "O") {
    throw new UnmigratableDataType(
      "object data types (variable-length strings, bytes or arrays) have an object codec as a filter, and zarr-python 3.1 has no v3 array-to-array codec for it",
    );
  }
  const code = `${kind}${digits}`;
  if (Object.hasOwn(NUMERIC, code) && unit === undefined) {
    const name = NUMERIC[code];
    // int8, uint8 and bool have no byte order, so their bytes codec has no configuration.
    const endian = size > 1 ? byteOrder(prefix) : null;
    return { dataType: name, endian, itemSize: size, fill: fillKind(code) };
  }
  if (kind === "S" && unit === undefined && digits !== "") {
    return {
      dataType: { name: "null_terminated_bytes", configuration: { length_bytes: size } },
      endian: null,
      itemSize: size,
      fill: "null-terminated-bytes",
    };
  }
  if (kind === "U" && unit === undefined && digits !== "") {
    return {
      dataType: { name: "fixed_length_utf32", configuration: { length_bytes: size * 4 } },
      endian: byteOrder(prefix),
      itemSize: size * 4,
      fill: "unicode",
    };
  }
  if (kind === "V" && unit === undefined && digits !== "") {
    return {
      dataType: { name: "raw_bytes", configuration: { length_bytes: size } },
      endian: null,
      itemSize: size,
      fill: "raw-bytes",
    };
  }
  if ((kind === "M" || kind === "m") && digits === "8" && unit !== undefined) {
    if (!TIME_UNITS.has(unit === "μs" ? "us" : unit))
      throw new UnmigratableDataType(
        `the time unit ${JSON.stringify(unit)} of ${dtype} is not one NumPy knows`,
      );
    return {
      dataType: {
        name: kind === "M" ? "numpy.datetime64" : "numpy.timedelta64",
        configuration: {
          unit: unit === "μs" ? "us" : unit,
          scale_factor: scale === "" ? 1 : Number(scale),
        },
      },
      endian: byteOrder(prefix),
      itemSize: 8,
      fill: "time",
    };
  }
  throw new UnmigratableDataType(
    `zarr-python 3.1 has no v3 data type for ${JSON.stringify(dtype)}`,
  );
}

/**
 * The v3 form of a v2 `dtype`, as zarr-python 3.1's migration writes it: NumPy numbers by
 * their v3 names (byte order moves to the `bytes` codec), `|S` as `null_terminated_bytes`,
 * `U` as `fixed_length_utf32`, `|V` as `raw_bytes`, `M8`/`m8` as `numpy.datetime64` /
 * `numpy.timedelta64`, and records as `structured` (fields as `[name, data_type]`).
 * @throws UnmigratableDataType for object types, records with subarray or nested fields or
 *   multi-byte big-endian fields (v3 `structured` has no byte order, so zarr-python would
 *   write metadata that reads them wrongly), and types v3 has no name for
 */
export function migrateDataType(dtype: JsonValue): MigratedDataType {
  if (typeof dtype === "string") return scalarType(dtype);
  if (!Array.isArray(dtype) || dtype.length === 0)
    throw new UnmigratableDataType(
      `the data type ${JSON.stringify(dtype)} is neither a type string nor a list of fields`,
    );
  const fields: JsonValue[] = [];
  let itemSize = 0;
  for (const field of dtype) {
    if (!Array.isArray(field) || typeof field[0] !== "string")
      throw new UnmigratableDataType(
        `the structured field ${JSON.stringify(field)} is not [name, type]`,
      );
    if (field.length !== 2 || typeof field[1] !== "string") {
      throw new UnmigratableDataType(
        `the structured field ${JSON.stringify(field[0])} has a subarray shape or nested fields, which zarr-python 3.1 cannot migrate`,
      );
    }
    const inner = scalarType(field[1]);
    if (inner.endian === "big") {
      throw new UnmigratableDataType(
        `the structured field ${JSON.stringify(field[0])} is big-endian (${field[1]}), and v3 structured data has no byte order, so its values would read wrongly`,
      );
    }
    fields.push([field[0], inner.dataType]);
    itemSize += inner.itemSize;
  }
  return {
    dataType: { name: "structured", configuration: { fields } },
    endian: null,
    itemSize,
    fill: "structured",
  };
}

import type { DataType } from "@z/metadata";
import type { ArrowField, ArrowType } from "./field/model.js";
import { arrowTypeToJson } from "./field/to-json.js";

const NATIVE: Record<string, ArrowType> = {
  bool: { name: "bool" },
  int8: { name: "int", bitWidth: 8, isSigned: true },
  int16: { name: "int", bitWidth: 16, isSigned: true },
  int32: { name: "int", bitWidth: 32, isSigned: true },
  int64: { name: "int", bitWidth: 64, isSigned: true },
  uint8: { name: "int", bitWidth: 8, isSigned: false },
  uint16: { name: "int", bitWidth: 16, isSigned: false },
  uint32: { name: "int", bitWidth: 32, isSigned: false },
  uint64: { name: "int", bitWidth: 64, isSigned: false },
  float16: { name: "floatingpoint", precision: "HALF" },
  float32: { name: "floatingpoint", precision: "SINGLE" },
  float64: { name: "floatingpoint", precision: "DOUBLE" },
  string: { name: "utf8" },
  bytes: { name: "binary" },
};

/**
 * The Arrow field a Zarr data type that is not `arrow` is written as by the `arrow-ipc` codec
 * (booleans, integers, floats, `string`, `bytes`), or undefined for types Arrow has no plain
 * equivalent of. Not nullable: Zarr elements are never null.
 */
export function nativeArrowField(dataType: DataType, name: string): ArrowField | undefined {
  const type = NATIVE[dataType.name];
  if (
    !type ||
    (dataType.name === "string" && dataType.kind !== "string") ||
    (dataType.name === "bytes" && dataType.kind !== "bytes")
  ) {
    return undefined;
  }
  return { name, nullable: false, type, children: [] };
}

/**
 * Whether a column read from an IPC stream can be read into a native Zarr data type: the same
 * integer or float type, bool, utf8, large utf8 or utf8 view for strings, binary, large binary
 * or binary view for bytes, dictionary-encoded, run-end encoded or not, nullable or not (nulls
 * read as the fill value).
 */
export function nativeCompatible(expected: ArrowField, actual: ArrowField): boolean {
  const e = expected.type;
  const a = actual.type;
  // Run-end encoding is a layout: the elements are those of the values.
  if (a.name === "runendencoded") return nativeCompatible(expected, actual.children[1]);
  if (e.name === "utf8")
    return a.name === "utf8" || a.name === "largeutf8" || a.name === "utf8view";
  if (e.name === "binary")
    return a.name === "binary" || a.name === "largebinary" || a.name === "binaryview";
  return JSON.stringify(arrowTypeToJson(e)) === JSON.stringify(arrowTypeToJson(a));
}

import { formatValue } from "@z/errors";
import { type DataType, resolveNumpyDataType } from "@z/metadata";
import { H5ValueError } from "./errors.js";

/** NumPy's one-letter type codes and Python's type names, as h5py accepts them. */
const ALIASES: Record<string, string> = {
  "?": "|b1",
  b: "|i1",
  B: "|u1",
  h: "<i2",
  H: "<u2",
  i: "<i4",
  I: "<u4",
  l: "<i8",
  L: "<u8",
  q: "<i8",
  Q: "<u8",
  e: "<f2",
  f: "<f4",
  d: "<f8",
  F: "<c8",
  D: "<c16",
  bool: "bool",
  int: "int64",
  float: "float64",
  complex: "complex128",
  f2: "float16",
  f4: "float32",
  f8: "float64",
  c8: "complex64",
  c16: "complex128",
};

/**
 * The data type string `createArray` takes for a NumPy-style dtype (`"f4"`, `"<i2"`, `">f8"`,
 * `"int16"`, `"?"`, `"d"`): a v3 name, or a type string when a byte order is given.
 * @throws H5ValueError for a dtype no registered data type understands
 */
export function zarrDtype(dtype: string): string {
  const spelled = ALIASES[dtype] ?? dtype;
  try {
    resolveNumpyDataType(spelled);
    return spelled;
  } catch {
    try {
      const withOrder = /^[biufcmMSUV]\d+$/.test(spelled) ? `<${spelled}` : spelled;
      resolveNumpyDataType(withOrder);
      return withOrder;
    } catch {
      throw new H5ValueError(
        `Unknown dtype ${formatValue(dtype, { bigint: "suffix" })}: use a NumPy type string ("f4", "<i2") or a name ("float32")`,
      );
    }
  }
}

function numericClass(dataType: DataType): { kind: string; size: number } | undefined {
  const { kind, itemSize } = dataType;
  if (
    kind === "bool" ||
    kind === "int" ||
    kind === "uint" ||
    kind === "float" ||
    kind === "complex"
  )
    return { kind, size: itemSize };
  return undefined;
}

/**
 * NumPy's `can_cast(from, to)` under "safe" casting, for the numeric types (other types cast
 * only to themselves): what `requireDataset` accepts without `exact`.
 */
export function canCastSafely(from: DataType, to: DataType): boolean {
  if (from.name === to.name) return true;
  const a = numericClass(from);
  const b = numericClass(to);
  if (!a || !b) return false;
  if (a.kind === "bool") return true;
  if (b.kind === "bool") return false;
  const integer = a.kind === "int" || a.kind === "uint";
  switch (b.kind) {
    case "int":
      return a.kind === "int" ? b.size >= a.size : a.kind === "uint" && b.size > a.size;
    case "uint":
      return a.kind === "uint" && b.size >= a.size;
    case "float":
      if (integer) return b.size > a.size || (a.size === 8 && b.size === 8);
      return a.kind === "float" && b.size >= a.size;
    case "complex":
      if (integer) return b.size / 2 > a.size || (a.size === 8 && b.size === 16);
      return a.kind === "float" ? b.size >= 2 * a.size : b.size >= a.size;
    default:
      return false;
  }
}

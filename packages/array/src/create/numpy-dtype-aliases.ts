// NumPy's names for data types, as `np.dtype(name)` reads them (NumPy 1.x on a 64-bit Linux or
// macOS, as zarr-python runs there: `int` and `long` are int64), mapped to the Zarr v3 names.

/**
 * NumPy's type names and their Zarr v3 data type: `"double"` is `"float64"`, `"int"` and
 * `"long"` are `"int64"` (NumPy on 64-bit Linux and macOS), `"str"` is the variable-length
 * `"string"` (as zarr-python reads it). The `dtype` option of array creation and `openArray`
 * accepts each of them.
 * @category Open and create
 */
export const NUMPY_TYPE_NAMES = {
  bool_: "bool",
  bool8: "bool",
  byte: "int8",
  ubyte: "uint8",
  short: "int16",
  ushort: "uint16",
  intc: "int32",
  uintc: "uint32",
  int: "int64",
  int_: "int64",
  int0: "int64",
  intp: "int64",
  long: "int64",
  longlong: "int64",
  uint: "uint64",
  uint0: "uint64",
  uintp: "uint64",
  ulong: "uint64",
  ulonglong: "uint64",
  half: "float16",
  single: "float32",
  float: "float64",
  float_: "float64",
  double: "float64",
  csingle: "complex64",
  singlecomplex: "complex64",
  complex: "complex128",
  complex_: "complex128",
  cfloat: "complex128",
  cdouble: "complex128",
  str: "string",
} as const satisfies Readonly<Record<string, string>>;

/**
 * NumPy's one-letter type codes (`np.dtype("d")`) and the sized ones without a byte order
 * (`"f8"`), with their Zarr v3 data type; a byte order may precede them (`"<d"`, `">i4"`).
 * @category Open and create
 */
export const NUMPY_TYPE_CODES = {
  "?": "bool",
  b1: "bool",
  b: "int8",
  i1: "int8",
  B: "uint8",
  u1: "uint8",
  h: "int16",
  i2: "int16",
  H: "uint16",
  u2: "uint16",
  i: "int32",
  i4: "int32",
  I: "uint32",
  u4: "uint32",
  l: "int64",
  q: "int64",
  p: "int64",
  i8: "int64",
  L: "uint64",
  Q: "uint64",
  P: "uint64",
  u8: "uint64",
  e: "float16",
  f2: "float16",
  f: "float32",
  f4: "float32",
  d: "float64",
  f8: "float64",
  F: "complex64",
  c8: "complex64",
  D: "complex128",
  c16: "complex128",
} as const satisfies Readonly<Record<string, string>>;

const CODE = /^([<>=|]?)(.+)$/;
const TIME_NAME = /^(datetime64|timedelta64)(\[\w+\])$/;

/**
 * The Zarr v3 name and byte order of a NumPy name or type code, or undefined for other strings.
 * `datetime64[ns]` and `timedelta64[s]` become the type strings `<M8[ns]` and `<m8[s]`.
 */
export function numpyAlias(dtype: string): { name: string; endian: "little" | "big" } | undefined {
  const names: Readonly<Record<string, string>> = NUMPY_TYPE_NAMES;
  const codes: Readonly<Record<string, string>> = NUMPY_TYPE_CODES;
  const named = Object.hasOwn(names, dtype) ? names[dtype] : undefined;
  if (named) return { name: named, endian: "little" };
  const time = TIME_NAME.exec(dtype);
  if (time)
    return { name: `<${time[1] === "datetime64" ? "M8" : "m8"}${time[2]}`, endian: "little" };
  const [, order, code] = CODE.exec(dtype) ?? [];
  const coded = code && Object.hasOwn(codes, code) ? codes[code] : undefined;
  return coded ? { name: coded, endian: order === ">" ? "big" : "little" } : undefined;
}

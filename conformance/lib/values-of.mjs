// Our values of a read, flattened in C order through its strides, in the fixtures' encoding:
// plain numeric containers are read directly (what a user's code sees), anything else through
// the data type's own JSON form. No Node built-ins: the Chromium page uses it too.

/** The container each plain numeric data type is read from directly (no library conversion). */
const DIRECT = {
  int8: "Int8Array",
  uint8: "Uint8Array",
  int16: "Int16Array",
  uint16: "Uint16Array",
  int32: "Int32Array",
  uint32: "Uint32Array",
  int64: "BigInt64Array",
  uint64: "BigUint64Array",
  float16: "Float16Array",
  float32: "Float32Array",
  float64: "Float64Array",
  complex64: "Float32Array",
  complex128: "Float64Array",
};

function plainNumber(v) {
  if (typeof v === "bigint") return v > 2n ** 53n || v < -(2n ** 53n) ? v.toString() : Number(v);
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  return v;
}

/**
 * The values of a read, flattened in C order through its strides: numeric containers read
 * directly (what a user's code sees), anything else through the data type's own JSON form.
 */
export function valuesOf(dataType, { data, shape, stride }) {
  const n = shape.reduce((a, b) => a * b, 1);
  const strides = stride ?? shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const direct = DIRECT[dataType.name] === data?.constructor?.name;
  const complex = dataType.name.startsWith("complex") && direct;
  const at = direct
    ? complex
      ? (o) => [plainNumber(data[2 * o]), plainNumber(data[2 * o + 1])]
      : (o) => plainNumber(data[o])
    : (o) => dataType.toJsonElement(dataType.getElement(data, o));
  const out = new Array(n);
  const index = shape.map(() => 0);
  let offset = 0;
  for (let i = 0; i < n; i++) {
    out[i] = at(offset);
    for (let d = shape.length - 1; d >= 0; d--) {
      index[d]++;
      offset += strides[d];
      if (index[d] < shape[d]) break;
      offset -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
  return { values: out, direct };
}

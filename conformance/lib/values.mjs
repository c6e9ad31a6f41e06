// Exact comparison of array values in the fixtures' JSON encoding: every element becomes one
// canonical string, keyed by the NumPy type of the reference reading, so that two readings are
// equal exactly when their stored values are (floats by their stored bits: float32 and float16
// values are rounded to their width first, so that the CLI's shortest digits and NumPy's double
// digits of the same stored float agree; NaN payloads aside).
const INT64_MIN = "-9223372036854775808";

/** Math.f16round where the runtime has it, else round-to-nearest-even to IEEE half precision. */
export const f16round =
  typeof Math.f16round === "function"
    ? Math.f16round
    : (x) => {
        if (!Number.isFinite(x) || x === 0) return x;
        const sign = x < 0 ? -1 : 1;
        const a = Math.abs(x);
        if (a >= 65520) return sign * Infinity;
        let e = Math.max(Math.floor(Math.log2(a)), -14);
        if (e > -14 && 2 ** e > a) e--;
        if (2 ** (e + 1) <= a) e++;
        const ulp = 2 ** (e - 10);
        const q = a / ulp;
        const f = Math.floor(q);
        const rest = q - f;
        const r = rest > 0.5 || (rest === 0.5 && f % 2 === 1) ? f + 1 : f;
        return sign * r * ulp;
      };

/** A NumPy type (`"<f4"`, `"|S3"`, a structured list) parsed into what canonical forms need. */
export function parseType(dtype) {
  if (Array.isArray(dtype))
    return {
      kind: "struct",
      fields: dtype.map(([name, type, shape]) => ({
        name,
        type: parseType(type),
        shape: shape ?? null,
      })),
    };
  const m = /^[<>|=]?([biufcmMSUOV])(\d*)/.exec(String(dtype));
  if (!m) return { kind: "O", size: 0 };
  return { kind: m[1], size: Number(m[2] || 0) };
}

function floatText(v, bits) {
  if (typeof v === "string") {
    if (v === "NaN" || v === "Infinity" || v === "-Infinity") return v;
    const n = Number(v);
    if (Number.isNaN(n)) return `string:${v}`;
    v = n;
  }
  if (typeof v !== "number") return `not a number:${JSON.stringify(v)}`;
  if (Number.isNaN(v)) return "NaN";
  const x = bits === 16 ? f16round(v) : bits === 32 ? Math.fround(v) : v;
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return Object.is(x, -0) ? "-0" : String(x);
}

function intText(v) {
  if (v === "NaT") return INT64_MIN;
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v).toString();
  if (typeof v === "string" && /^-?\d+$/.test(v)) return BigInt(v).toString();
  return `not an integer:${JSON.stringify(v)}`;
}

/** Bytes as the fixtures write them: base64 without trailing NULs (ours say `base64`). */
function bytesText(v) {
  const b64 = v?.b64 ?? v?.base64;
  if (typeof b64 !== "string") return `not bytes:${JSON.stringify(v)}`;
  const bytes = Buffer.from(b64, "base64");
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return `b64:${bytes.subarray(0, end).toString("base64")}`;
}

/** Any JSON value with sorted keys, bytes and special floats in one spelling. */
function genericText(v) {
  const norm = (x) => {
    if (typeof x === "number") return Number.isNaN(x) ? "NaN" : Number.isFinite(x) ? x : String(x);
    if (typeof x === "bigint")
      return x <= 2n ** 53n && x >= -(2n ** 53n) ? Number(x) : x.toString();
    if (Array.isArray(x)) return x.map(norm);
    if (x && typeof x === "object") {
      if ("b64" in x || "base64" in x) return bytesText(x);
      return Object.fromEntries(
        Object.keys(x)
          .sort()
          .map((k) => [k, norm(x[k])]),
      );
    }
    return x;
  };
  return JSON.stringify(norm(v));
}

/** One element's canonical string under a parsed type. */
export function canonicalElement(v, type) {
  switch (type.kind) {
    case "f":
      return floatText(v, type.size * 8);
    case "c":
      return Array.isArray(v) && v.length === 2
        ? `${floatText(v[0], type.size * 4)},${floatText(v[1], type.size * 4)}`
        : `not complex:${JSON.stringify(v)}`;
    case "i":
    case "u":
    case "m":
    case "M":
      return intText(v);
    case "b":
      return v === true || v === 1
        ? "true"
        : v === false || v === 0
          ? "false"
          : `not bool:${JSON.stringify(v)}`;
    case "S":
    case "V":
      return bytesText(v);
    case "U":
      return typeof v === "string" ? JSON.stringify(v) : `not a string:${JSON.stringify(v)}`;
    case "struct": {
      if (!v || typeof v !== "object") return `not a struct:${JSON.stringify(v)}`;
      return `{${type.fields
        .map(({ name, type: t, shape }) =>
          shape
            ? `${JSON.stringify(name)}:[${(Array.isArray(v[name]) ? v[name].flat(Infinity) : [v[name]]).map((x) => canonicalElement(x, t)).join("|")}]`
            : `${JSON.stringify(name)}:${canonicalElement(v[name], t)}`,
        )
        .join(",")}}`;
    }
    default:
      return genericText(v);
  }
}

/** Every element's canonical string. */
export function canonicalValues(values, dtype) {
  const type = parseType(dtype);
  const out = new Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = canonicalElement(values[i], type);
  return out;
}

/**
 * How two canonical readings differ: undefined when equal, else the count of differing
 * elements and the first one.
 */
export function difference(shapeA, a, shapeB, b) {
  if (JSON.stringify(shapeA) !== JSON.stringify(shapeB))
    return `shape ${JSON.stringify(shapeA)} vs ${JSON.stringify(shapeB)}`;
  if (a.length !== b.length) return `${a.length} values vs ${b.length}`;
  let first = -1;
  let count = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      if (first < 0) first = i;
      count++;
    }
  }
  if (count === 0) return undefined;
  const cut = (s) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);
  return `${count} of ${a.length} values differ, first at [${first}]: ${cut(a[first])} vs ${cut(b[first])}`;
}

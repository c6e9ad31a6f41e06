import type { DataType } from "@z/zarr";
import { type FloatBits, floatBitsOf, shortestFloat } from "./float-digits.js";

/**
 * Formats one data type's elements as NumPy prints them inside an array, all to one width so
 * columns line up: integers right-aligned, floats aligned on the decimal point (`0.  0.5 1.25`,
 * or `1.5e-05` for all when the magnitudes call for it, as NumPy decides), `True`/`False`,
 * strings quoted, complex as `1.+2.j`; other types as their JSON form.
 */
export function formatElements(dataType: DataType, values: readonly unknown[]): string[] {
  const bits = floatBitsOf(dataType);
  switch (dataType.kind) {
    case "bool":
      return padStart(values.map((v) => (v ? "True" : "False")));
    case "int":
    case "uint":
      return padStart(values.map((v) => String(v)));
    case "float":
      return formatFloats(values as number[], bits);
    case "complex":
      return formatComplex(values as { re: number; im: number }[], bits);
    case "string":
      return values.map((v) => pythonString(String(v)));
    case "bytes":
      return values.map((v) => (v instanceof Uint8Array ? pythonBytes(v) : String(v)));
    case "datetime":
    case "timedelta":
      return padStart(values.map((v) => String(dataType.toJsonElement(v as never))));
    default:
      // Object arrays print their elements' repr: strings quoted, anything else as JSON.
      return values.map((v) => {
        if (typeof v === "string") return pythonString(v);
        if (v instanceof Uint8Array) return pythonBytes(v);
        return JSON.stringify(dataType.toJsonElement(v as never));
      });
  }
}

function padStart(words: string[]): string[] {
  const width = Math.max(0, ...words.map((w) => w.length));
  return words.map((w) => w.padStart(width));
}

/** A string as Python's `repr` writes it: single quotes, or double when only `'` occurs in it. */
function pythonString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text
    .replaceAll("\\", "\\\\")
    .replaceAll(quote, `\\${quote}`)
    .replaceAll("\n", "\\n")
    .replaceAll("\t", "\\t")
    .replaceAll("\r", "\\r");
  return `${quote}${escaped}${quote}`;
}

/**
 * Bytes as Python's `repr` writes them (`b'ab\\x00c'`), without the trailing NULs NumPy's
 * fixed-size `S` type drops.
 */
function pythonBytes(bytes: Uint8Array): string {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  const body = bytes.subarray(0, end);
  const quote = body.includes(0x27) && !body.includes(0x22) ? '"' : "'";
  let text = "";
  for (const byte of body) {
    if (byte === 0x5c) text += "\\\\";
    else if (String.fromCharCode(byte) === quote) text += `\\${quote}`;
    else if (byte === 0x0a) text += "\\n";
    else if (byte === 0x09) text += "\\t";
    else if (byte === 0x0d) text += "\\r";
    else if (byte >= 0x20 && byte < 0x7f) text += String.fromCharCode(byte);
    else text += `\\x${byte.toString(16).padStart(2, "0")}`;
  }
  return `b${quote}${text}${quote}`;
}

function nonFinite(x: number): string {
  return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
}

/**
 * Floats as NumPy's default print options do (precision 8, `maxprec`): positional, each with
 * its shortest digits (at most 8 after the point) padded with spaces to align the points,
 * unless the largest magnitude is ≥ 1e8, the smallest non-zero one < 1e-4, or their ratio
 * > 1000; then every element is written in scientific notation with as many mantissa digits
 * as the longest shortest one needs, the others continuing with their exact digits.
 */
export function formatFloats(values: readonly number[], bits: FloatBits): string[] {
  const shortest = values.map((x) => shortestFloat(x, bits));
  const magnitudes = shortest.filter((x) => Number.isFinite(x) && x !== 0).map(Math.abs);
  const max = Math.max(0, ...magnitudes);
  const min = Math.min(Number.POSITIVE_INFINITY, ...magnitudes);
  const scientific = magnitudes.length > 0 && (max >= 1e8 || min < 1e-4 || max / min > 1000);
  // Each finite value as [integer part with sign, fractional digits, exponent].
  let parts: ([string, string, string] | undefined)[];
  if (scientific) {
    const digits = Math.max(
      0,
      ...shortest.map((x) =>
        Number.isFinite(x)
          ? Math.min(8, x.toExponential().split("e")[0].split(".")[1]?.length ?? 0)
          : 0,
      ),
    );
    parts = values.map((x) => {
      if (!Number.isFinite(x)) return undefined;
      const [mantissa, exponent] = x.toExponential(digits).split("e");
      const [whole, fraction = ""] = mantissa.split(".");
      const e = Number(exponent);
      return [
        Object.is(x, -0) ? "-0" : whole,
        fraction,
        `e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`,
      ];
    });
  } else {
    parts = shortest.map((x, i) => {
      if (!Number.isFinite(x)) return undefined;
      const text = fractionDigits(x) > 8 ? String(Number(values[i].toFixed(8))) : String(x);
      const [whole, fraction = ""] = text.split(".");
      return [Object.is(x, -0) ? "-0" : whole, fraction, ""];
    });
  }
  const wholeWidth = Math.max(0, ...parts.map((p) => p?.[0].length ?? 0));
  const fractionWidth = Math.max(0, ...parts.map((p) => p?.[1].length ?? 0));
  const words = parts.map((p, i) =>
    p === undefined
      ? nonFinite(values[i])
      : `${p[0].padStart(wholeWidth)}.${p[1].padEnd(fractionWidth)}${p[2]}`,
  );
  return padStart(words);
}

function fractionDigits(x: number): number {
  const text = String(x);
  if (text.includes("e")) return 99;
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

function formatComplex(values: readonly { re: number; im: number }[], bits: FloatBits): string[] {
  const re = formatFloats(
    values.map((v) => v.re),
    bits,
  );
  const im = formatFloats(
    values.map((v) => Math.abs(v.im)),
    bits,
  ).map((text) => text.trim());
  const imWidth = Math.max(0, ...im.map((t) => t.length));
  return values.map((v, i) => {
    const sign = v.im < 0 || Object.is(v.im, -0) ? "-" : "+";
    return `${re[i]}${sign}${im[i].padEnd(imWidth)}j`;
  });
}

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The unscaled integer of a decimal written as text (`"-12.5"`, `"3"`, `"1.25e2"`) for a
 * decimal type of the given scale, or a reason it does not fit: more fractional digits than
 * the scale keeps, or more digits than the precision allows. Nothing is rounded.
 */
export function parseDecimal(text: string, precision: number, scale: number): bigint | string {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match || (match[2] === "" && (match[3] ?? "") === "")) return "is not a decimal number";
  const [, sign, whole, fraction = "", exponentText] = match;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 1000)
    return "has an exponent out of range";
  // value = digits * 10^(exponent - fraction.length); unscaled = value * 10^scale
  let digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, "");
  let shift = exponent - fraction.length + scale;
  if (shift < 0) {
    const dropped = digits.slice(Math.max(0, digits.length + shift));
    if (/[^0]/.test(dropped)) return `has more fractional digits than the scale (${scale}) keeps`;
    digits = digits.slice(0, Math.max(0, digits.length + shift)) || "0";
    shift = 0;
  }
  let unscaled = BigInt(digits || "0") * 10n ** BigInt(shift);
  if (sign === "-") unscaled = -unscaled;
  const magnitude = unscaled < 0n ? -unscaled : unscaled;
  if (magnitude >= 10n ** BigInt(precision)) return `has more than ${precision} significant digits`;
  return unscaled;
}

/**
 * A decimal's text from its unscaled integer: exactly `scale` fractional digits (`"1.50"` for
 * scale 2); a scale of 0 or less gives an integer (`"1200"` for unscaled 12 and scale -2).
 */
export function formatDecimal(unscaled: bigint, scale: number): string {
  if (scale <= 0) return (unscaled * 10n ** BigInt(-scale)).toString();
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, "0");
  const text = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

/** Writes a two's-complement little-endian integer of `byteWidth` bytes. */
export function writeDecimalBytes(
  unscaled: bigint,
  out: Uint8Array,
  at: number,
  byteWidth: number,
): void {
  let v = BigInt.asUintN(byteWidth * 8, unscaled);
  for (let k = 0; k < byteWidth; k++) {
    out[at + k] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** Reads a two's-complement little-endian integer of `byteWidth` bytes. */
export function readDecimalBytes(bytes: Uint8Array, at: number, byteWidth: number): bigint {
  let v = 0n;
  for (let k = byteWidth - 1; k >= 0; k--) v = (v << 8n) | BigInt(bytes[at + k]);
  return BigInt.asIntN(byteWidth * 8, v);
}

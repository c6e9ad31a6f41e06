/** How close two numbers must be to count as equal, as NumPy's `isclose` has it. */
export interface Tolerance {
  /** Relative tolerance: `|a - b| <= atol + rtol * |b|` (0: exact). */
  rtol: number;
  /** Absolute tolerance (0: exact). */
  atol: number;
  /** Whether NaN equals NaN. */
  equalNan: boolean;
}

/** Exact equality, NaN unequal to itself: what `zarr compare` uses without options. */
export const EXACT: Tolerance = { rtol: 0, atol: 0, equalNan: false };

function numbersEqual(a: number, b: number, tolerance: Tolerance): boolean {
  if (Number.isNaN(a) || Number.isNaN(b))
    return tolerance.equalNan && Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  // Infinities are equal only to themselves (caught above); inf - inf would be NaN.
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= tolerance.atol + tolerance.rtol * Math.abs(b);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !ArrayBuffer.isView(value)
  );
}

/**
 * Whether two elements are equal: numbers (and 64-bit integers, which are exact unless a
 * tolerance is given) by the {@link Tolerance}; booleans and strings exactly; byte strings
 * byte for byte; complex numbers and records part by part, each part by the same rules.
 * Elements of different kinds (a number and a string) are unequal.
 */
export function elementsEqual(a: unknown, b: unknown, tolerance: Tolerance): boolean {
  if (typeof a === "bigint" && typeof b === "bigint") {
    if (a === b) return true;
    return tolerance.rtol === 0 && tolerance.atol === 0
      ? false
      : numbersEqual(Number(a), Number(b), tolerance);
  }
  const numeric = (v: unknown) => typeof v === "number" || typeof v === "bigint";
  if (numeric(a) && numeric(b)) return numbersEqual(Number(a), Number(b), tolerance);
  if (a instanceof Uint8Array && b instanceof Uint8Array)
    return a.length === b.length && a.every((byte, i) => byte === b[i]);
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => elementsEqual(item, b[i], tolerance));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && elementsEqual(a[key], b[key], tolerance))
    );
  }
  return a === b;
}

/** `|a - b|` of two numeric elements, or undefined for other kinds and non-finite values. */
export function absoluteDifference(a: unknown, b: unknown): number | undefined {
  const numeric = (v: unknown) => typeof v === "number" || typeof v === "bigint";
  if (!numeric(a) || !numeric(b)) return undefined;
  const d = Math.abs(Number(a) - Number(b));
  return Number.isFinite(d) ? d : undefined;
}

// The complex part helpers: private to the @z packages. complex.ts holds the public side, which the
// package entry re-exports whole.
import type { Complex } from "./complex.js";
import { ValueTypeError } from "./value-errors.js";

/** Whether a value is a complex number `{re, im}`. */
export function isComplex(value: unknown): value is Complex {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Complex).re === "number" &&
    typeof (value as Complex).im === "number"
  );
}

/**
 * The number parts of a complex value as users write it: `{re, im}`, `[re, im]`, or a real
 * number, bigint or boolean (imaginary part 0).
 * @throws ValueTypeError for anything else, naming the data type
 */
export function complexParts(value: unknown, dataType: string): Complex {
  let re: unknown;
  let im: unknown = 0;
  if (typeof value === "number") re = value;
  else if (typeof value === "bigint") re = Number(value);
  else if (typeof value === "boolean") re = value ? 1 : 0;
  else if (Array.isArray(value) && value.length === 2) [re, im] = value;
  else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    re = (value as Complex).re;
    im = (value as Complex).im;
  } else {
    throw new ValueTypeError(value, dataType, "expected {re, im}, [re, im] or a number");
  }
  if (typeof re !== "number" || typeof im !== "number") {
    throw new ValueTypeError(value, dataType, "the real and imaginary parts must be numbers");
  }
  return { re, im };
}

// The comparison and v2 helpers: private to the @z packages. minifloat.ts holds the public side, which the
// package entry re-exports whole.
import { InvalidDataTypeError } from "./dtype-errors.js";

/** Equal as stored values: NaN equals NaN, and -0 differs from 0. */
export const sameStoredFloat = (a: number, b: number): boolean =>
  a === b ? a !== 0 || 1 / a === 1 / b : Number.isNaN(a) && Number.isNaN(b);

/** The reason a value that is not a number cannot be stored as a float type. */
export function notANumberReason(value: unknown): string {
  return typeof value === "string"
    ? 'strings are not parsed as numbers; pass a number (Number.NaN, not "NaN")'
    : "expected a number";
}

/** A v3-only data type: asking for its v2 form is an error that says so. */
export function noV2Form(name: string): never {
  throw new InvalidDataTypeError(
    `${name} has no Zarr v2 dtype (it is a Zarr v3 extension data type): create the array with zarrFormat 3`,
  );
}

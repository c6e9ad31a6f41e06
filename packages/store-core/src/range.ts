import { nameErrorClass } from "@z/errors";
import { StoreError } from "./errors.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    InvalidRangeError: InvalidRangeError;
  }
}

/**
 * A byte range of a stored value: `{offset, length}`, `{offset}` (to the end) or `{suffix}`
 * (the last `suffix` bytes).
 */
export type ByteRange =
  | { offset: number; length: number }
  | { offset: number }
  | { suffix: number };

/** A range that is not well formed (negative numbers, non-integers). */
export class InvalidRangeError extends StoreError {
  static {
    nameErrorClass(InvalidRangeError, "InvalidRangeError");
  }
}

function checkNonNegativeInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new InvalidRangeError(
      `Invalid byte range: ${what} must be a non-negative integer, got ${value}`,
    );
  }
}

/** Validates a range's numbers. @throws InvalidRangeError */
export function validateRange(range: ByteRange): ByteRange {
  if ("suffix" in range) {
    checkNonNegativeInteger(range.suffix, "suffix");
  } else {
    checkNonNegativeInteger(range.offset, "offset");
    if ("length" in range) checkNonNegativeInteger(range.length, "length");
  }
  return range;
}

/**
 * Resolves a range against a value of `size` bytes into `[start, end)`, clipped to the value.
 * A range that starts past the end resolves to an empty span; callers that need an exact
 * length (such as the sharding codec) check the length they get.
 */
export function resolveRange(range: ByteRange, size: number): [number, number] {
  validateRange(range);
  if ("suffix" in range) return [Math.max(0, size - range.suffix), size];
  const start = Math.min(range.offset, size);
  const end = "length" in range ? Math.min(size, range.offset + range.length) : size;
  return [start, Math.max(start, end)];
}

/** The part of `bytes` a range selects, as a view (no copy). */
export function sliceRange(bytes: Uint8Array, range: ByteRange | undefined): Uint8Array {
  if (range === undefined) return bytes;
  const [start, end] = resolveRange(range, bytes.length);
  return bytes.subarray(start, end);
}

// Slice resolution: private to the @z packages. slice.ts holds the public side, which the
// package entry re-exports whole.
import { SelectionError } from "./errors.js";
import type { Slice } from "./slice.js";

/**
 * Resolves a slice against an axis of `length` elements like Python's `slice.indices`:
 * the first index, the step and how many indices it selects.
 * @throws SelectionError for a zero or non-integer step, or non-integer bounds
 */
export function resolveSlice(
  s: Slice,
  length: number,
  axis: number,
): { start: number; step: number; count: number } {
  const step = s.step ?? 1;
  if (!Number.isInteger(step) || step === 0) {
    throw new SelectionError(`Axis ${axis}: slice step must be a non-zero integer, got ${s.step}`);
  }
  for (const [name, value] of [
    ["start", s.start],
    ["stop", s.stop],
  ] as const) {
    if (value !== null && !Number.isInteger(value)) {
      throw new SelectionError(
        `Axis ${axis}: slice ${name} must be an integer or null, got ${value}`,
      );
    }
  }
  let start: number;
  let stop: number;
  if (step > 0) {
    start = s.start === null ? 0 : clamp(s.start < 0 ? s.start + length : s.start, 0, length);
    stop = s.stop === null ? length : clamp(s.stop < 0 ? s.stop + length : s.stop, 0, length);
  } else {
    start =
      s.start === null
        ? length - 1
        : clamp(s.start < 0 ? s.start + length : s.start, -1, length - 1);
    stop = s.stop === null ? -1 : clamp(s.stop < 0 ? s.stop + length : s.stop, -1, length - 1);
  }
  const span = step > 0 ? stop - start : start - stop;
  const count = span <= 0 ? 0 : Math.ceil(span / Math.abs(step));
  return { start, step, count };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

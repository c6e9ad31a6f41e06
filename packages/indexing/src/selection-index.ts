// The index normalisation: private to the @z packages. selection.ts holds the public side, which the
// package entry re-exports whole.
import { BoundsError, SelectionError } from "./errors.js";

/**
 * Wraps a negative index and checks it against an axis length.
 * @throws BoundsError when it is outside `[-length, length)`
 */
export function normalizeIndex(index: number, length: number, axis: number): number {
  if (!Number.isInteger(index))
    throw new SelectionError(`Axis ${axis}: index ${index} is not an integer`);
  const wrapped = index < 0 ? index + length : index;
  if (wrapped < 0 || wrapped >= length) {
    throw new BoundsError(`Index ${index} is out of bounds for axis ${axis} with size ${length}`);
  }
  return wrapped;
}

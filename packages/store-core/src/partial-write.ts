import { validateKey } from "./keys.js";
import { InvalidRangeError } from "./range.js";
import type { PartialWrite } from "./store.js";

/**
 * Checks one write of `setPartialValues`: a valid key, a non-negative integer offset and
 * bytes. Stores check every write of a call before they change anything.
 * @throws InvalidKeyError, InvalidRangeError
 */
export function checkPartialWrite(write: PartialWrite): void {
  validateKey(write.key);
  if (!Number.isSafeInteger(write.offset) || write.offset < 0) {
    throw new InvalidRangeError(
      `Invalid partial write of ${JSON.stringify(write.key)}: offset must be a non-negative integer, got ${write.offset}`,
    );
  }
  if (!(write.value instanceof Uint8Array)) {
    throw new InvalidRangeError(
      `Invalid partial write of ${JSON.stringify(write.key)}: value must be a Uint8Array`,
    );
  }
}

/**
 * A new value: `current` with `bytes` written at `offset`, longer when they reach past its end
 * (the gap between the old end and `offset` is zeros, as a file written past its end reads).
 */
export function spliceValue(current: Uint8Array, offset: number, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(Math.max(current.length, offset + bytes.length));
  out.set(current);
  out.set(bytes, offset);
  return out;
}

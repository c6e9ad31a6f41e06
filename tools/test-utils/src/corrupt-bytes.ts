import { expect } from "vitest";

/** Deterministic pseudo-random bytes (incompressible): xorshift32 from `seed`. */
export function noise(n: number, seed = 7): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Whether two buffers hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0;
}

/** A copy of `bytes` with the bits of `mask` flipped at `at`. */
export function flipped(bytes: Uint8Array, at: number, mask = 0x10): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[at] ^= mask;
  return out;
}

/** Positions spread over a buffer of `n` bytes: the first and last 16 and a sample in between. */
export function spreadPositions(n: number): number[] {
  const set = new Set<number>();
  for (let i = 0; i < Math.min(n, 16); i++) set.add(i).add(n - 1 - i);
  for (let i = 0; i < n; i += Math.max(1, Math.floor(n / 64))) set.add(i);
  return [...set].filter((i) => i >= 0 && i < n).sort((a, b) => a - b);
}

/**
 * Decodes corrupt bytes: the decoder must throw an `errorClass`, or return exactly the original
 * data (a flipped bit nobody reads). Returns whether it threw.
 */
export async function rejectsOrSame(
  decode: () => Uint8Array | Promise<Uint8Array>,
  original: Uint8Array,
  errorClass: abstract new (...args: never[]) => Error,
): Promise<boolean> {
  try {
    const out = await decode();
    expect(sameBytes(out, original)).toBe(true);
    return false;
  } catch (error) {
    expect(error).toBeInstanceOf(errorClass);
    return true;
  }
}

const MOD = 65521;
/** The most bytes summed before a modulo keeps both sums below 2^32 (zlib's NMAX). */
const RUN = 5552;

/**
 * The Adler-32 of `bytes` (the zlib stream trailer, numcodecs' `adler32` codec). Pass a previous
 * result as `adler` to continue a running checksum.
 */
export function adler32(bytes: Uint8Array, adler = 1): number {
  let a = adler & 0xffff;
  let b = adler >>> 16;
  const n = bytes.length;
  for (let start = 0; start < n; start += RUN) {
    const end = Math.min(n, start + RUN);
    for (let i = start; i < end; i++) {
      a += bytes[i];
      b += a;
    }
    a %= MOD;
    b %= MOD;
  }
  return ((b << 16) | a) >>> 0;
}

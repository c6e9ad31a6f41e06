/**
 * The Fletcher-32 checksum as HDF5 and numcodecs compute it: 16-bit big-endian words summed in
 * blocks of 359, the odd last byte as the high byte of a final word.
 */
export function fletcher32(bytes: Uint8Array): number {
  let sum1 = 0xffff;
  let sum2 = 0xffff;
  const words = bytes.length >>> 1;
  let i = 0;
  for (let left = words; left > 0; ) {
    // 359 words is the most that can be summed before sum2 could pass 2^32.
    let block = Math.min(left, 359);
    left -= block;
    for (; block > 0; block--, i += 2) {
      sum1 += (bytes[i] << 8) | bytes[i + 1];
      sum2 += sum1;
    }
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  if (bytes.length & 1) {
    sum1 += bytes[bytes.length - 1] << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
  return ((sum2 << 16) | sum1) >>> 0;
}

/** Whether this machine stores 32-bit words little-endian (every platform JavaScript runs on today). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/**
 * A reflected 32-bit CRC (the CRC-32 of zlib, gzip and zip, and CRC-32C) computed with
 * slicing-by-8 tables built once for its polynomial, reading the input as aligned 32-bit words
 * where the platform is little-endian (about 1.1 GB/s against 0.8 GB/s byte by byte). Returns
 * `(bytes, crc?) => checksum`, where `crc` is a previous result to continue a running checksum.
 */
export function reflectedCrc32(polynomial: number): (bytes: Uint8Array, crc?: number) => number {
  const tables = Array.from({ length: 8 }, () => new Uint32Array(256));
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ polynomial : c >>> 1;
    tables[0][n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    let c = tables[0][n];
    for (let t = 1; t < 8; t++) {
      c = tables[0][c & 0xff] ^ (c >>> 8);
      tables[t][n] = c >>> 0;
    }
  }
  const [t0, t1, t2, t3, t4, t5, t6, t7] = tables;
  return (bytes, crc = 0) => {
    let c = ~crc >>> 0;
    let i = 0;
    const n = bytes.length;
    const head = (4 - (bytes.byteOffset & 3)) & 3;
    if (LITTLE_ENDIAN && n >= head + 8) {
      // Bytes up to a 4-byte boundary one at a time, then two words per step.
      for (; i < head; i++) c = t0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
      const words = new Uint32Array(bytes.buffer, bytes.byteOffset + i, ((n - i) >>> 3) << 1);
      for (let w = 0; w < words.length; w += 2) {
        const a = c ^ words[w];
        const b = words[w + 1];
        c =
          t7[a & 0xff] ^
          t6[(a >>> 8) & 0xff] ^
          t5[(a >>> 16) & 0xff] ^
          t4[a >>> 24] ^
          t3[b & 0xff] ^
          t2[(b >>> 8) & 0xff] ^
          t1[(b >>> 16) & 0xff] ^
          t0[b >>> 24];
      }
      i += words.length * 4;
    } else {
      for (; i + 8 <= n; i += 8) {
        const a =
          c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
        c =
          t7[a & 0xff] ^
          t6[(a >>> 8) & 0xff] ^
          t5[(a >>> 16) & 0xff] ^
          t4[a >>> 24] ^
          t3[bytes[i + 4]] ^
          t2[bytes[i + 5]] ^
          t1[bytes[i + 6]] ^
          t0[bytes[i + 7]];
      }
    }
    for (; i < n; i++) c = t0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return ~c >>> 0;
  };
}

/**
 * A reflected 32-bit CRC (the CRC-32 of zlib and gzip, and CRC-32C) computed with slicing-by-8
 * tables built once for its polynomial. Returns `(bytes, crc?) => checksum`, where `crc` is a
 * previous result to continue a running checksum.
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
    for (; i + 8 <= n; i += 8) {
      const a = c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
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
    for (; i < n; i++) c = t0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return ~c >>> 0;
  };
}

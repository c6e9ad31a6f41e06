// XXH32 (seed 0), for the header and content checksums of LZ4 frames.

const P1 = 0x9e3779b1;
const P2 = 0x85ebca77;
const P3 = 0xc2b2ae3d;
const P4 = 0x27d4eb2f;
const P5 = 0x165667b1;

function rotl(x: number, n: number): number {
  return (x << n) | (x >>> (32 - n));
}

function round(acc: number, lane: number): number {
  return Math.imul(rotl((acc + Math.imul(lane, P2)) | 0, 13), P1);
}

/** The XXH32 hash (seed 0) of `data`, as an unsigned 32-bit number. */
export function xxhash32(data: Uint8Array): number {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const n = data.length;
  let i = 0;
  let h: number;
  if (n >= 16) {
    let v1 = (P1 + P2) | 0;
    let v2 = P2;
    let v3 = 0;
    let v4 = -P1 | 0;
    for (; i + 16 <= n; i += 16) {
      v1 = round(v1, view.getUint32(i, true));
      v2 = round(v2, view.getUint32(i + 4, true));
      v3 = round(v3, view.getUint32(i + 8, true));
      v4 = round(v4, view.getUint32(i + 12, true));
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = P5;
  }
  h = (h + n) | 0;
  for (; i + 4 <= n; i += 4) {
    h = Math.imul(rotl((h + Math.imul(view.getUint32(i, true), P3)) | 0, 17), P4);
  }
  for (; i < n; i++) h = Math.imul(rotl((h + Math.imul(data[i], P5)) | 0, 11), P1);
  h ^= h >>> 15;
  h = Math.imul(h, P2);
  h ^= h >>> 13;
  h = Math.imul(h, P3);
  h ^= h >>> 16;
  return h >>> 0;
}

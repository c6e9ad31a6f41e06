// XXH64 (seed 0), for the content checksum of zstd frames. 64-bit words are kept as two uint32
// halves because BigInt arithmetic is an order of magnitude slower.

const P1H = 0x9e3779b1;
const P1L = 0x85ebca87;
const P2H = 0xc2b2ae3d;
const P2L = 0x27d4eb4f;
const P3H = 0x165667b1;
const P3L = 0x9e3779f9;
const P4H = 0x85ebca77;
const P4L = 0xc2b2ae63;
const P5H = 0x27d4eb2f;
const P5L = 0x165667c5;

// The result of the last 64-bit operation: high and low halves.
let rh = 0;
let rl = 0;

/** (ah:al) * (bh:bl) mod 2^64 into rh:rl. */
function mul(ah: number, al: number, bh: number, bl: number): void {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  // Low word exactly with imul; high word of al * bl from 16-bit partial products.
  rl = Math.imul(al, bl) >>> 0;
  const mid = a1 * b0 + a0 * b1 + ((a0 * b0) >>> 16);
  const carry = a1 * b1 + ((mid / 65536) >>> 0);
  rh = (carry + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0;
}

/** (ah:al) + (bh:bl) mod 2^64 into rh:rl. */
function add(ah: number, al: number, bh: number, bl: number): void {
  const low = al + bl;
  rl = low >>> 0;
  rh = (ah + bh + (low > 0xffffffff ? 1 : 0)) >>> 0;
}

/** rotl(h:l, n) for 0 < n < 32 into rh:rl. */
function rotl(h: number, l: number, n: number): void {
  rh = ((h << n) | (l >>> (32 - n))) >>> 0;
  rl = ((l << n) | (h >>> (32 - n))) >>> 0;
}

/** round(acc, input) = rotl(acc + input * P2, 31) * P1, into rh:rl. */
function round(acch: number, accl: number, inh: number, inl: number): void {
  mul(inh, inl, P2H, P2L);
  add(acch, accl, rh, rl);
  rotl(rh, rl, 31);
  mul(rh, rl, P1H, P1L);
}

const P1L0 = P1L & 0xffff;
const P1L1 = P1L >>> 16;
const P2L0 = P2L & 0xffff;
const P2L1 = P2L >>> 16;

/**
 * The stripe loop's round on accumulator `i` of `state` (high half at 2i, low at 2i+1), with the
 * multiplications by P2 and P1 spelled out: this loop is where all the time goes.
 */
function roundInPlace(state: Uint32Array, i: number, inh: number, inl: number): void {
  // input * P2
  let a0 = inl & 0xffff;
  let a1 = inl >>> 16;
  let mid = a1 * P2L0 + a0 * P2L1 + ((a0 * P2L0) >>> 16);
  let ml = Math.imul(inl, P2L) >>> 0;
  let mh = (a1 * P2L1 + ((mid / 65536) >>> 0) + Math.imul(inh, P2L) + Math.imul(inl, P2H)) >>> 0;
  // acc + that
  const sum = state[2 * i + 1] + ml;
  const sl = sum >>> 0;
  const sh = (state[2 * i] + mh + (sum > 0xffffffff ? 1 : 0)) >>> 0;
  // rotl 31
  const rh0 = ((sh << 31) | (sl >>> 1)) >>> 0;
  const rl0 = ((sl << 31) | (sh >>> 1)) >>> 0;
  // * P1
  a0 = rl0 & 0xffff;
  a1 = rl0 >>> 16;
  mid = a1 * P1L0 + a0 * P1L1 + ((a0 * P1L0) >>> 16);
  ml = Math.imul(rl0, P1L) >>> 0;
  mh = (a1 * P1L1 + ((mid / 65536) >>> 0) + Math.imul(rh0, P1L) + Math.imul(rl0, P1H)) >>> 0;
  state[2 * i] = mh;
  state[2 * i + 1] = ml;
}

/** The 64-bit XXH64 hash of `data` with seed 0, as `[high, low]` uint32 halves. */
export function xxhash64(data: Uint8Array): [number, number] {
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  const n = data.length;
  let p = 0;
  let hh: number;
  let hl: number;
  if (n >= 32) {
    add(P1H, P1L, P2H, P2L);
    // v1 = P1 + P2, v2 = P2, v3 = 0, v4 = 0 - P1 (two's complement)
    const negL = (~P1L + 1) >>> 0;
    const state = Uint32Array.of(rh, rl, P2H, P2L, 0, 0, (~P1H + (negL === 0 ? 1 : 0)) >>> 0, negL);
    for (; p + 32 <= n; p += 32) {
      roundInPlace(state, 0, view.getUint32(p + 4, true), view.getUint32(p, true));
      roundInPlace(state, 1, view.getUint32(p + 12, true), view.getUint32(p + 8, true));
      roundInPlace(state, 2, view.getUint32(p + 20, true), view.getUint32(p + 16, true));
      roundInPlace(state, 3, view.getUint32(p + 28, true), view.getUint32(p + 24, true));
    }
    const [v1h, v1l, v2h, v2l, v3h, v3l, v4h, v4l] = state;
    rotl(v1h, v1l, 1);
    let ah = rh;
    let al = rl;
    rotl(v2h, v2l, 7);
    add(ah, al, rh, rl);
    ah = rh;
    al = rl;
    rotl(v3h, v3l, 12);
    add(ah, al, rh, rl);
    ah = rh;
    al = rl;
    rotl(v4h, v4l, 18);
    add(ah, al, rh, rl);
    hh = rh;
    hl = rl;
    for (const [vh, vl] of [
      [v1h, v1l],
      [v2h, v2l],
      [v3h, v3l],
      [v4h, v4l],
    ]) {
      round(0, 0, vh, vl);
      hh = (hh ^ rh) >>> 0;
      hl = (hl ^ rl) >>> 0;
      mul(hh, hl, P1H, P1L);
      add(rh, rl, P4H, P4L);
      hh = rh;
      hl = rl;
    }
  } else {
    hh = P5H;
    hl = P5L;
  }
  add(hh, hl, Math.floor(n / 2 ** 32), n >>> 0);
  hh = rh;
  hl = rl;
  for (; p + 8 <= n; p += 8) {
    round(0, 0, view.getUint32(p + 4, true), view.getUint32(p, true));
    hh = (hh ^ rh) >>> 0;
    hl = (hl ^ rl) >>> 0;
    rotl(hh, hl, 27);
    mul(rh, rl, P1H, P1L);
    add(rh, rl, P4H, P4L);
    hh = rh;
    hl = rl;
  }
  if (p + 4 <= n) {
    mul(0, view.getUint32(p, true), P1H, P1L);
    hh = (hh ^ rh) >>> 0;
    hl = (hl ^ rl) >>> 0;
    rotl(hh, hl, 23);
    mul(rh, rl, P2H, P2L);
    add(rh, rl, P3H, P3L);
    hh = rh;
    hl = rl;
    p += 4;
  }
  for (; p < n; p++) {
    mul(0, data[p], P5H, P5L);
    hh = (hh ^ rh) >>> 0;
    hl = (hl ^ rl) >>> 0;
    rotl(hh, hl, 11);
    mul(rh, rl, P1H, P1L);
    hh = rh;
    hl = rl;
  }
  // Avalanche: h ^= h >> 33; h *= P2; h ^= h >> 29; h *= P3; h ^= h >> 32.
  hl = (hl ^ (hh >>> 1)) >>> 0;
  mul(hh, hl, P2H, P2L);
  hl = (rl ^ (((rh << 3) | (rl >>> 29)) >>> 0)) >>> 0;
  hh = (rh ^ (rh >>> 29)) >>> 0;
  mul(hh, hl, P3H, P3L);
  hh = rh;
  hl = (rl ^ rh) >>> 0;
  return [hh, hl];
}

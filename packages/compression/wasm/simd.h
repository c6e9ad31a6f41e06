/* Vector helpers shared by the kernels: byte zips and unzips, and 8x8 bit transposes. */
#ifndef Z_SIMD_H
#define Z_SIMD_H

#include <stdint.h>
#include <stddef.h>
#include <wasm_simd128.h>

#define EXPORT(name) __attribute__((export_name(#name)))

static inline v128_t load16(const uint8_t *p) { return wasm_v128_load(p); }
static inline void store16(uint8_t *p, v128_t v) { wasm_v128_store(p, v); }

/* Interleaves the low (zip_lo) or high (zip_hi) halves of a and b byte by byte. */
static inline v128_t zip_lo(v128_t a, v128_t b) {
  return wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
}
static inline v128_t zip_hi(v128_t a, v128_t b) {
  return wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
}
/* The even (unzip_even) or odd (unzip_odd) bytes of the 32 bytes a, b. */
static inline v128_t unzip_even(v128_t a, v128_t b) {
  return wasm_i8x16_shuffle(a, b, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
}
static inline v128_t unzip_odd(v128_t a, v128_t b) {
  return wasm_i8x16_shuffle(a, b, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
}

/*
 * Turns t vectors of 16 bytes, one per byte plane (t a power of two up to 16), into 16 elements
 * of t bytes: log2(t) rounds of the same perfect shuffle, each zipping vector j with j + t/2.
 */
static inline void interleave(v128_t *v, int t) {
  v128_t next[16];
  for (int round = 1; round < t; round <<= 1) {
    for (int j = 0; j < t / 2; j++) {
      next[2 * j] = zip_lo(v[j], v[j + t / 2]);
      next[2 * j + 1] = zip_hi(v[j], v[j + t / 2]);
    }
    for (int j = 0; j < t; j++) v[j] = next[j];
  }
}

/* The inverse of interleave: 16 elements of t bytes in, t byte planes of 16 bytes out. */
static inline void deinterleave(v128_t *v, int t) {
  v128_t next[16];
  for (int round = 1; round < t; round <<= 1) {
    for (int j = 0; j < t / 2; j++) {
      next[j] = unzip_even(v[2 * j], v[2 * j + 1]);
      next[j + t / 2] = unzip_odd(v[2 * j], v[2 * j + 1]);
    }
    for (int j = 0; j < t; j++) v[j] = next[j];
  }
}

/*
 * Transposes the 8x8 bit matrix in each 64-bit lane (byte r = row r, bit c = column c), so that
 * byte c of the result holds bit c of every row; its own inverse.
 */
static inline v128_t transpose_bits(v128_t x) {
  v128_t t;
  t = wasm_v128_and(wasm_v128_xor(x, wasm_u64x2_shr(x, 7)), wasm_i64x2_splat(0x00AA00AA00AA00AALL));
  x = wasm_v128_xor(x, wasm_v128_xor(t, wasm_i64x2_shl(t, 7)));
  t = wasm_v128_and(wasm_v128_xor(x, wasm_u64x2_shr(x, 14)), wasm_i64x2_splat(0x0000CCCC0000CCCCLL));
  x = wasm_v128_xor(x, wasm_v128_xor(t, wasm_i64x2_shl(t, 14)));
  t = wasm_v128_and(wasm_v128_xor(x, wasm_u64x2_shr(x, 28)), wasm_i64x2_splat(0x00000000F0F0F0F0LL));
  x = wasm_v128_xor(x, wasm_v128_xor(t, wasm_i64x2_shl(t, 28)));
  return x;
}

/* transpose_bits for one 64-bit word. */
static inline uint64_t transpose_bits64(uint64_t x) {
  uint64_t t;
  t = (x ^ (x >> 7)) & 0x00AA00AA00AA00AAULL;
  x ^= t ^ (t << 7);
  t = (x ^ (x >> 14)) & 0x0000CCCC0000CCCCULL;
  x ^= t ^ (t << 14);
  t = (x ^ (x >> 28)) & 0x00000000F0F0F0F0ULL;
  x ^= t ^ (t << 28);
  return x;
}

/* Copies n bytes between non-overlapping buffers (memory.copy with bulk memory). */
static inline void copy_bytes(uint8_t *dst, const uint8_t *src, size_t n) {
  __builtin_memcpy(dst, src, n);
}

#endif

/*
 * Blosc's byte shuffle and its inverse: n elements of typesize bytes become typesize planes of
 * n bytes. Bytes past the last whole element are copied unchanged, as c-blosc does. Type sizes
 * 2, 4, 8 and 16 move 16 elements per step through vector zips; others go byte by byte.
 */
#include "shuffle.h"

static inline void unshuffle_pow2(int t, size_t n, const uint8_t *src, uint8_t *dst) {
  size_t i = 0;
  v128_t v[16];
  for (; i + 16 <= n; i += 16) {
    for (int j = 0; j < t; j++) v[j] = load16(src + j * n + i);
    interleave(v, t);
    for (int j = 0; j < t; j++) store16(dst + i * t + 16 * j, v[j]);
  }
  for (; i < n; i++)
    for (int j = 0; j < t; j++) dst[i * t + j] = src[j * n + i];
}

static inline void shuffle_pow2(int t, size_t n, const uint8_t *src, uint8_t *dst) {
  size_t i = 0;
  v128_t v[16];
  for (; i + 16 <= n; i += 16) {
    for (int j = 0; j < t; j++) v[j] = load16(src + i * t + 16 * j);
    deinterleave(v, t);
    for (int j = 0; j < t; j++) store16(dst + j * n + i, v[j]);
  }
  for (; i < n; i++)
    for (int j = 0; j < t; j++) dst[j * n + i] = src[i * t + j];
}

void unshuffle_planes(uint32_t typesize, size_t n, const uint8_t *src, uint8_t *dst) {
  switch (typesize) {
    case 2: unshuffle_pow2(2, n, src, dst); return;
    case 4: unshuffle_pow2(4, n, src, dst); return;
    case 8: unshuffle_pow2(8, n, src, dst); return;
    case 16: unshuffle_pow2(16, n, src, dst); return;
  }
  for (size_t j = 0; j < typesize; j++) {
    const uint8_t *plane = src + j * n;
    uint8_t *out = dst + j;
    for (size_t i = 0; i < n; i++, out += typesize) *out = plane[i];
  }
}

void shuffle_planes(uint32_t typesize, size_t n, const uint8_t *src, uint8_t *dst) {
  switch (typesize) {
    case 2: shuffle_pow2(2, n, src, dst); return;
    case 4: shuffle_pow2(4, n, src, dst); return;
    case 8: shuffle_pow2(8, n, src, dst); return;
    case 16: shuffle_pow2(16, n, src, dst); return;
  }
  for (size_t j = 0; j < typesize; j++) {
    uint8_t *plane = dst + j * n;
    const uint8_t *in = src + j;
    for (size_t i = 0; i < n; i++, in += typesize) plane[i] = *in;
  }
}

EXPORT(shuffle)
void shuffle(uint32_t typesize, uint32_t blocksize, const uint8_t *src, uint8_t *dst) {
  size_t n = typesize > 1 ? blocksize / typesize : 0;
  size_t whole = n * typesize;
  if (n) shuffle_planes(typesize, n, src, dst);
  copy_bytes(dst + whole, src + whole, blocksize - whole);
}

EXPORT(unshuffle)
void unshuffle(uint32_t typesize, uint32_t blocksize, const uint8_t *src, uint8_t *dst) {
  size_t n = typesize > 1 ? blocksize / typesize : 0;
  size_t whole = n * typesize;
  if (n) unshuffle_planes(typesize, n, src, dst);
  copy_bytes(dst + whole, src + whole, blocksize - whole);
}

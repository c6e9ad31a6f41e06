/*
 * Blosc's bit shuffle (the bitshuffle library's layout): for n elements of typesize bytes, row
 * 8 * j + k holds bit k of byte j of every element, n / 8 bytes per row, element i in bit i % 8
 * of byte i / 8. c-blosc only bit-shuffles when n is a multiple of 8; otherwise the block is
 * copied unchanged. Bytes past the last whole element are copied as is.
 *
 * Both directions go through byte planes (the byte shuffle, into `scratch`). Between a plane and
 * its 8 rows, 16 bytes of each row are zipped into 16 groups of 8 bytes (one byte per row, the
 * byte shuffle of 8-byte elements), and each group is an 8x8 bit matrix to transpose.
 */
#include "shuffle.h"

/* Byte plane -> its 8 bit rows, rowbytes bytes each, at rows[k * rowbytes]. */
static void plane_to_rows(const uint8_t *plane, uint8_t *rows, size_t rowbytes) {
  size_t m = 0;
  v128_t v[16];
  for (; m + 16 <= rowbytes; m += 16) {
    for (int i = 0; i < 8; i++) v[i] = transpose_bits(load16(plane + 8 * m + 16 * i));
    deinterleave(v, 8);
    for (int k = 0; k < 8; k++) store16(rows + k * rowbytes + m, v[k]);
  }
  for (; m < rowbytes; m++) {
    uint64_t x = 0;
    for (int b = 7; b >= 0; b--) x = (x << 8) | plane[8 * m + b];
    x = transpose_bits64(x);
    for (int k = 0; k < 8; k++) rows[k * rowbytes + m] = (uint8_t)(x >> (8 * k));
  }
}

/* The 8 bit rows at rows[k * rowbytes] -> their byte plane. */
static void rows_to_plane(const uint8_t *rows, uint8_t *plane, size_t rowbytes) {
  size_t m = 0;
  v128_t v[16];
  for (; m + 16 <= rowbytes; m += 16) {
    for (int k = 0; k < 8; k++) v[k] = load16(rows + k * rowbytes + m);
    interleave(v, 8);
    for (int i = 0; i < 8; i++) store16(plane + 8 * m + 16 * i, transpose_bits(v[i]));
  }
  for (; m < rowbytes; m++) {
    uint64_t x = 0;
    for (int k = 7; k >= 0; k--) x = (x << 8) | rows[k * rowbytes + m];
    x = transpose_bits64(x);
    for (int b = 0; b < 8; b++) plane[8 * m + b] = (uint8_t)(x >> (8 * b));
  }
}

EXPORT(bitshuffle)
void bitshuffle(uint32_t typesize, uint32_t blocksize, const uint8_t *src, uint8_t *dst,
                uint8_t *scratch) {
  size_t n = blocksize / typesize;
  if (n % 8 != 0) {
    copy_bytes(dst, src, blocksize);
    return;
  }
  size_t rowbytes = n / 8;
  size_t whole = n * typesize;
  shuffle_planes(typesize, n, src, scratch);
  for (size_t j = 0; j < typesize; j++) plane_to_rows(scratch + j * n, dst + j * n, rowbytes);
  copy_bytes(dst + whole, src + whole, blocksize - whole);
}

EXPORT(bitunshuffle)
void bitunshuffle(uint32_t typesize, uint32_t blocksize, const uint8_t *src, uint8_t *dst,
                  uint8_t *scratch) {
  size_t n = blocksize / typesize;
  if (n % 8 != 0) {
    copy_bytes(dst, src, blocksize);
    return;
  }
  size_t rowbytes = n / 8;
  size_t whole = n * typesize;
  for (size_t j = 0; j < typesize; j++) rows_to_plane(src + j * n, scratch + j * n, rowbytes);
  unshuffle_planes(typesize, n, scratch, dst);
  copy_bytes(dst + whole, src + whole, blocksize - whole);
}

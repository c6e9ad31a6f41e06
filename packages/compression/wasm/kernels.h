/* The kernels the Blosc block decoder calls (each defined and exported in its own file). */
#ifndef Z_KERNELS_H
#define Z_KERNELS_H

#include "simd.h"

/* lz4-decode.c: one raw LZ4 block; the end of the decoded data or a negative code. */
int32_t lz4_decode_block(const uint8_t *src, uint32_t src_len, uint8_t *dst, uint32_t dst_len,
                         uint32_t start);
/* blosclz-decode.c: one BloscLZ stream; the number of bytes decoded or a negative code. */
int32_t blosclz_decode(const uint8_t *src, uint32_t src_len, uint8_t *dst, uint32_t dst_len);
/* shuffle.c: the inverse of Blosc's byte shuffle of one block. */
void unshuffle(uint32_t typesize, uint32_t blocksize, const uint8_t *src, uint8_t *dst);
/* bitshuffle.c: the inverse of Blosc's bit shuffle of one block (scratch: blocksize bytes). */
void bitunshuffle(uint32_t typesize, uint32_t blocksize, const uint8_t *src, uint8_t *dst,
                  uint8_t *scratch);

#endif

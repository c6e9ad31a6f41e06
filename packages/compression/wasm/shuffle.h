/* The byte shuffle's plane transposes, shared with the bit shuffle. */
#ifndef Z_SHUFFLE_H
#define Z_SHUFFLE_H

#include "simd.h"

/* n elements of typesize bytes at src become typesize planes of n bytes at dst. */
void shuffle_planes(uint32_t typesize, size_t n, const uint8_t *src, uint8_t *dst);
/* typesize planes of n bytes at src become n elements of typesize bytes at dst. */
void unshuffle_planes(uint32_t typesize, size_t n, const uint8_t *src, uint8_t *dst);

#endif

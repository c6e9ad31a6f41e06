/*
 * Decodes one BloscLZ stream (Blosc's FastLZ-derived format; see src/blosclz.ts for the format).
 * The checks and their order are those of the JavaScript decoder (blosclzDecompress), so both
 * accept the same streams; a rejected stream returns a negative code and the caller asks the
 * JavaScript decoder for the message. Every length and distance is checked against both buffers
 * before it is used, and each step consumes at least one input byte.
 */
#include "kernels.h"

enum {
  TRUNCATED_MATCH_LENGTH = -1,
  TRUNCATED_DISTANCE = -2,
  TRUNCATED_FAR_DISTANCE = -3,
  BAD_DISTANCE = -4,
  MATCH_OVERFLOW = -5,
  TRUNCATED_LITERALS = -6,
  LITERALS_OVERFLOW = -7,
};

#define MAX_DISTANCE 8191

/* Copies a match of len bytes from distance bytes back, which may overlap what it writes. */
static void copy_match(uint8_t *op, size_t distance, size_t len) {
  const uint8_t *ref = op - distance;
  if (distance == 1) {
    __builtin_memset(op, ref[0], len);
  } else if (distance >= len) {
    copy_bytes(op, ref, len);
  } else if (len < 32) {
    for (size_t i = 0; i < len; i++) op[i] = ref[i];
  } else {
    /* Chunks that never overlap their source, each a whole number of periods, doubling. */
    size_t dist = distance;
    while (len > 0) {
      size_t n = dist < len ? dist : len;
      copy_bytes(op, op - dist, n);
      op += n;
      len -= n;
      dist += n;
    }
  }
}

int32_t blosclz_decode(const uint8_t *src, uint32_t src_len, uint8_t *dst, uint32_t dst_len) {
  if (src_len == 0) return 0;
  const uint8_t *ip = src;
  const uint8_t *const end = src + src_len;
  uint8_t *op = dst;
  uint8_t *const dst_end = dst + dst_len;
  uint32_t ctrl = *ip++ & 31;
  for (;;) {
    if (ctrl >= 32) {
      uint64_t len = (ctrl >> 5) - 1;
      if (len == 6) {
        uint8_t b;
        do {
          if (ip >= end) return TRUNCATED_MATCH_LENGTH;
          b = *ip++;
          len += b;
        } while (b == 255);
      }
      if (ip >= end) return TRUNCATED_DISTANCE;
      uint32_t code = *ip++;
      len += 3;
      size_t distance = ((ctrl & 31) << 8) + code + 1;
      if (code == 255 && (ctrl & 31) == 31) {
        if (end - ip < 2) return TRUNCATED_FAR_DISTANCE;
        distance = (((size_t)ip[0] << 8) | ip[1]) + MAX_DISTANCE + 1;
        ip += 2;
      }
      if (distance > (size_t)(op - dst)) return BAD_DISTANCE;
      if (len > (uint64_t)(dst_end - op)) return MATCH_OVERFLOW;
      copy_match(op, distance, (size_t)len);
      op += len;
    } else {
      size_t n = ctrl + 1;
      if (n > (size_t)(end - ip)) return TRUNCATED_LITERALS;
      if (n > (size_t)(dst_end - op)) return LITERALS_OVERFLOW;
      if (end - ip >= 32 && dst_end - op >= 32) {
        /* At most 32 literals: two vectors, the overshoot inside the output's room, which what
         * follows overwrites (a stream that stops short is an error, its output never used). */
        store16(op, load16(ip));
        store16(op + 16, load16(ip + 16));
      } else {
        copy_bytes(op, ip, n);
      }
      ip += n;
      op += n;
    }
    if (ip >= end) break;
    ctrl = *ip++;
  }
  return (int32_t)(op - dst);
}

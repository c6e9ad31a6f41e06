/*
 * Decodes one raw LZ4 block (no frame). Every length and offset is checked against both buffers
 * before it is used, so hostile input can neither read nor write outside them nor loop: each
 * sequence consumes at least one input byte. The checks and their order are those of the
 * JavaScript decoder (src/lz4/decompress.ts), so both accept and reject the same blocks; a
 * rejected block returns a negative code and the caller asks the JavaScript decoder for the
 * message. Copies move 16 bytes at a time where the output has room for the overshoot, which
 * what follows overwrites (a block that stops short is an error, its output never used).
 */
#include "simd.h"

enum {
  TRUNCATED_SEQUENCE = -1,
  TRUNCATED_LITERAL_LENGTH = -2,
  TRUNCATED_LITERALS = -3,
  OUTPUT_FULL = -4,
  TRUNCATED_OFFSET = -5,
  BAD_OFFSET = -6,
  TRUNCATED_MATCH_LENGTH = -7,
};

#define MINMATCH 4

/* Sums the extra length bytes from *ip (255 while more follow), or returns -1 at the end. */
static inline int64_t length_bytes(const uint8_t **ip, const uint8_t *end) {
  int64_t sum = 0;
  uint8_t b;
  do {
    if (*ip >= end) return -1;
    b = *(*ip)++;
    sum += b;
  } while (b == 255);
  return sum;
}

static inline uint64_t load8(const uint8_t *p) {
  uint64_t x;
  __builtin_memcpy(&x, p, 8);
  return x;
}

static inline void store8(uint8_t *p, uint64_t x) { __builtin_memcpy(p, &x, 8); }

/* Copies a match of len bytes from offset back; the output has room for len bytes only. */
static void copy_match_exact(uint8_t *op, size_t offset, size_t len) {
  const uint8_t *ref = op - offset;
  if (offset == 1) {
    __builtin_memset(op, ref[0], len);
    return;
  }
  if (offset >= len) {
    __builtin_memcpy(op, ref, len);
    return;
  }
  for (size_t i = 0; i < len; i++) op[i] = ref[i];
}

/* Matches at least this long are copied with memory.copy (its call costs more than a few vectors). */
#define LONG_MATCH 128

/*
 * Copies a long match: once if it does not overlap itself, else in chunks that never overlap
 * their source, all from the match's start, each as long as everything copied so far (a whole
 * number of periods), so the pattern doubles with each copy.
 */
static void copy_long_match(uint8_t *op, size_t offset, size_t len) {
  if (offset == 1) {
    __builtin_memset(op, op[-1], len);
    return;
  }
  const uint8_t *from = op - offset;
  size_t dist = offset;
  while (len > 0) {
    size_t n = dist < len ? dist : len;
    copy_bytes(op, from, n);
    op += n;
    len -= n;
    dist += n;
  }
}

/*
 * Decodes src[0, src_len) into dst from dst + start, where dst[0, start) is earlier output that
 * matches may refer to, and dst has room for dst_len bytes in all. Returns the end of the
 * decoded data (counted from dst) or a negative code.
 */
EXPORT(lz4_decode_block)
int32_t lz4_decode_block(const uint8_t *src, uint32_t src_len, uint8_t *dst, uint32_t dst_len,
                         uint32_t start) {
  const uint8_t *ip = src;
  const uint8_t *const end = src + src_len;
  uint8_t *op = dst + start;
  uint8_t *const dst_end = dst + dst_len;
  for (;;) {
    if (ip >= end) return TRUNCATED_SEQUENCE;
    unsigned token = *ip++;
    size_t lit = token >> 4;
    if (lit == 15) {
      int64_t extra = length_bytes(&ip, end);
      if (extra < 0) return TRUNCATED_LITERAL_LENGTH;
      if ((uint64_t)extra > (uint64_t)(end - ip)) return TRUNCATED_LITERALS;
      lit += (size_t)extra;
    }
    if (lit > (size_t)(end - ip)) return TRUNCATED_LITERALS;
    if (lit > (size_t)(dst_end - op)) return OUTPUT_FULL;
    if (lit <= 16 && end - ip >= 16 && dst_end - op >= 16) {
      store16(op, load16(ip));
    } else {
      copy_bytes(op, ip, lit);
    }
    op += lit;
    ip += lit;
    if (ip == end) break; /* the last sequence has literals only */
    if (end - ip < 2) return TRUNCATED_OFFSET;
    size_t offset = ip[0] | ((size_t)ip[1] << 8);
    ip += 2;
    if (offset == 0 || offset > (size_t)(op - dst)) return BAD_OFFSET;
    size_t len = token & 15;
    if (len == 15) {
      int64_t extra = length_bytes(&ip, end);
      if (extra < 0) return TRUNCATED_MATCH_LENGTH;
      if ((uint64_t)extra > (uint64_t)(dst_end - op)) return OUTPUT_FULL;
      len += (size_t)extra;
    }
    len += MINMATCH;
    if (len > (size_t)(dst_end - op)) return OUTPUT_FULL;
    const uint8_t *ref = op - offset;
    uint8_t *const stop = op + len;
    if (len >= LONG_MATCH) {
      copy_long_match(op, offset, len);
      op = stop;
    } else if ((size_t)(dst_end - stop) >= 16) {
      if (offset >= 16) {
        /* Each 16-byte copy reads bytes at least 16 back, already final. */
        do {
          store16(op, load16(ref));
          op += 16;
          ref += 16;
        } while (op < stop);
      } else if (offset >= 8) {
        do {
          store8(op, load8(ref));
          op += 8;
          ref += 8;
        } while (op < stop);
      } else {
        /*
         * A pattern shorter than 8 bytes: the first 8 bytes one at a time, then 8 at a time
         * from a whole number of periods back (8 to 14 bytes), already final.
         */
        for (int i = 0; i < 8; i++) op[i] = ref[i];
        size_t period = offset * ((8 + offset - 1) / offset);
        for (op += 8; op < stop; op += 8) store8(op, load8(op - period));
      }
      op = stop;
    } else {
      copy_match_exact(op, offset, len);
      op = stop;
    }
  }
  return (int32_t)(op - dst);
}

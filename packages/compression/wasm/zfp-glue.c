/*
 * The calls the zfp codec makes of the zfp library (vendored in ./zfp, release 1.0.0), with
 * plain integer and double arguments so that JavaScript can call them without a binding layer.
 *
 * Decoding never reads past its input: the stream is copied into a zero-padded buffer as large
 * as the longest stream the field and mode allow, and a stream that ends before the decoder does
 * is reported as truncated (zfp itself has no bounds checks).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zfp.h"

#define EXPORT(name) __attribute__((export_name(#name)))

/* Results below zero: what went wrong (the JavaScript side turns them into messages). */
enum {
  ZFPZ_NO_MEMORY = -1,
  ZFPZ_BAD_PARAMETERS = -2,
  ZFPZ_BAD_HEADER = -3,
  ZFPZ_HEADER_MISMATCH = -4,
  ZFPZ_TRUNCATED = -5,
  ZFPZ_FAILED = -6,
  ZFPZ_TRAILING = -7,
};

/* Modes, as the JavaScript side numbers them. */
enum {
  ZFPZ_EXPERT = 0,
  ZFPZ_FIXED_RATE = 1,
  ZFPZ_FIXED_PRECISION = 2,
  ZFPZ_FIXED_ACCURACY = 3,
  ZFPZ_REVERSIBLE = 4,
};

/* A stream header's field (type, nx, ny, nz, nw) after a decode reports a mismatch; the
 * encoded buffer and its size after an encode. */
static int64_t info[5];
static void* encoded;
static size_t encoded_size;

EXPORT(zfpz_malloc) void* zfpz_malloc(size_t size) { return malloc(size); }

EXPORT(zfpz_free) void zfpz_free(void* pointer) { free(pointer); }

EXPORT(zfpz_info) int64_t* zfpz_info(void) { return info; }

EXPORT(zfpz_encoded) void* zfpz_encoded(void) { return encoded; }

EXPORT(zfpz_encoded_size) size_t zfpz_encoded_size(void) { return encoded_size; }

/* Releases the last encoded buffer. */
EXPORT(zfpz_release) void zfpz_release(void) {
  free(encoded);
  encoded = NULL;
  encoded_size = 0;
}

/* A contiguous field of `dims` dimensions (nx varies fastest), or NULL. */
static zfp_field* make_field(void* data, zfp_type type, uint32_t dims, size_t nx, size_t ny,
                             size_t nz, size_t nw) {
  switch (dims) {
    case 1: return zfp_field_1d(data, type, nx);
    case 2: return zfp_field_2d(data, type, nx, ny);
    case 3: return zfp_field_3d(data, type, nx, ny, nz);
    case 4: return zfp_field_4d(data, type, nx, ny, nz, nw);
    default: return NULL;
  }
}

/* Sets the compression mode; false when zfp rejects the parameters. `real` is the rate or the
 * tolerance; fixed rate takes the zfp type and dimensionality its bit budget is computed for. */
static int set_mode(zfp_stream* zfp, int32_t mode, double real, uint32_t minbits,
                    uint32_t maxbits, uint32_t maxprec, int32_t minexp, int32_t rate_type,
                    uint32_t rate_dims) {
  switch (mode) {
    case ZFPZ_EXPERT: return zfp_stream_set_params(zfp, minbits, maxbits, maxprec, minexp);
    case ZFPZ_FIXED_RATE:
      if (!(real >= 0) || rate_dims < 1 || rate_dims > 4) return 0;
      zfp_stream_set_rate(zfp, real, (zfp_type)rate_type, rate_dims, zfp_false);
      return 1;
    case ZFPZ_FIXED_PRECISION: zfp_stream_set_precision(zfp, maxprec); return 1;
    case ZFPZ_FIXED_ACCURACY:
      if (!(real >= 0)) return 0;
      zfp_stream_set_accuracy(zfp, real);
      return 1;
    case ZFPZ_REVERSIBLE: zfp_stream_set_reversible(zfp); return 1;
    default: return 0;
  }
}

/*
 * Compresses `src` (a contiguous field) and keeps the result for zfpz_encoded(); returns its
 * size or a negative error. With `header`, the stream starts with zfp's full header (as zfpy
 * writes it).
 */
EXPORT(zfpz_encode)
int32_t zfpz_encode(const void* src, int32_t type, uint32_t dims, size_t nx, size_t ny,
                    size_t nz, size_t nw, int32_t header, int32_t mode, double real,
                    uint32_t minbits, uint32_t maxbits, uint32_t maxprec, int32_t minexp,
                    int32_t rate_type, uint32_t rate_dims) {
  zfpz_release();
  zfp_field* field = make_field((void*)src, (zfp_type)type, dims, nx, ny, nz, nw);
  zfp_stream* zfp = zfp_stream_open(NULL);
  int32_t result = ZFPZ_FAILED;
  bitstream* stream = NULL;
  if (!field || !zfp) {
    result = ZFPZ_NO_MEMORY;
    goto done;
  }
  if (!set_mode(zfp, mode, real, minbits, maxbits, maxprec, minexp, rate_type, rate_dims)) {
    result = ZFPZ_BAD_PARAMETERS;
    goto done;
  }
  size_t capacity = zfp_stream_maximum_size(zfp, field);
  if (capacity == 0) {
    result = ZFPZ_BAD_PARAMETERS;
    goto done;
  }
  encoded = malloc(capacity);
  stream = encoded ? stream_open(encoded, capacity) : NULL;
  if (!stream) {
    result = ZFPZ_NO_MEMORY;
    goto done;
  }
  zfp_stream_set_bit_stream(zfp, stream);
  zfp_stream_rewind(zfp);
  if (header && !zfp_write_header(zfp, field, ZFP_HEADER_FULL)) {
    result = ZFPZ_BAD_HEADER;
    goto done;
  }
  size_t size = zfp_compress(zfp, field);
  if (size == 0 || size > capacity) goto done;
  encoded_size = size;
  result = (int32_t)size;
done:
  if (result < 0) zfpz_release();
  if (stream) stream_close(stream);
  if (zfp) zfp_stream_close(zfp);
  if (field) zfp_field_free(field);
  return result;
}

/*
 * Decompresses `size` bytes at `src` into `dst`, a contiguous field of the given type and
 * size. With `header`, the stream's header must describe a field of that type and number of
 * values (decoded in the header's shape, which C order makes the same values), and its mode
 * replaces the one given; otherwise the mode given is the one the stream was written with.
 * Returns the bytes of the stream the decoder used, or a negative error.
 */
EXPORT(zfpz_decode)
int32_t zfpz_decode(const void* src, size_t size, void* dst, int32_t type, uint32_t dims,
                    size_t nx, size_t ny, size_t nz, size_t nw, int32_t header, int32_t mode,
                    double real, uint32_t minbits, uint32_t maxbits, uint32_t maxprec,
                    int32_t minexp, int32_t rate_type, uint32_t rate_dims) {
  zfp_field* field = make_field(dst, (zfp_type)type, dims, nx, ny, nz, nw);
  zfp_stream* zfp = zfp_stream_open(NULL);
  int32_t result = ZFPZ_FAILED;
  bitstream* stream = NULL;
  void* padded = NULL;
  if (!field || !zfp) {
    result = ZFPZ_NO_MEMORY;
    goto done;
  }
  if (header) {
    /* The header alone, from a padded copy: at most 148 bits. */
    uint64_t head[4] = {0, 0, 0, 0};
    memcpy(head, src, size < sizeof head ? size : sizeof head);
    bitstream* head_stream = stream_open(head, sizeof head);
    zfp_field* stored = zfp_field_alloc();
    if (!head_stream || !stored) {
      if (head_stream) stream_close(head_stream);
      if (stored) zfp_field_free(stored);
      result = ZFPZ_NO_MEMORY;
      goto done;
    }
    zfp_stream_set_bit_stream(zfp, head_stream);
    zfp_stream_rewind(zfp);
    size_t bits = zfp_read_header(zfp, stored, ZFP_HEADER_FULL);
    info[0] = stored->type;
    info[1] = (int64_t)stored->nx;
    info[2] = (int64_t)stored->ny;
    info[3] = (int64_t)stored->nz;
    info[4] = (int64_t)stored->nw;
    /* The same type and number of values: zfpy's older releases compressed chunks flattened. */
    int same = stored->type == field->type &&
               zfp_field_size(stored, NULL) == zfp_field_size(field, NULL);
    if (same) {
      field->nx = stored->nx;
      field->ny = stored->ny;
      field->nz = stored->nz;
      field->nw = stored->nw;
    }
    zfp_field_free(stored);
    stream_close(head_stream);
    zfp_stream_set_bit_stream(zfp, NULL);
    if (bits == 0 || bits > 8 * size) {
      result = ZFPZ_BAD_HEADER;
      goto done;
    }
    if (!same) {
      result = ZFPZ_HEADER_MISMATCH;
      goto done;
    }
  } else if (!set_mode(zfp, mode, real, minbits, maxbits, maxprec, minexp, rate_type,
                       rate_dims)) {
    result = ZFPZ_BAD_PARAMETERS;
    goto done;
  }
  /* The longest stream this field and mode can have (the header included), plus a word. */
  size_t longest = zfp_stream_maximum_size(zfp, field);
  if (longest == 0) {
    result = ZFPZ_BAD_PARAMETERS;
    goto done;
  }
  size_t capacity = (size > longest ? size : longest) + 16;
  capacity = (capacity + 7) & ~(size_t)7;
  padded = malloc(capacity);
  stream = padded ? stream_open(padded, capacity) : NULL;
  if (!stream) {
    result = ZFPZ_NO_MEMORY;
    goto done;
  }
  memcpy(padded, src, size);
  memset((char*)padded + size, 0, capacity - size);
  zfp_stream_set_bit_stream(zfp, stream);
  zfp_stream_rewind(zfp);
  if (header && !zfp_read_header(zfp, field, ZFP_HEADER_FULL)) {
    result = ZFPZ_BAD_HEADER;
    goto done;
  }
  size_t used = zfp_decompress(zfp, field);
  if (used == 0) goto done;
  /* This build's streams end on a 64-bit word; builds with 8-bit words (Debian's) leave out
   * the zero bytes that pad the last one. Either way, a stream is truncated when the decoder
   * used a word it does not reach. */
  if (used > ((size + 7) & ~(size_t)7)) {
    result = ZFPZ_TRUNCATED;
    goto done;
  }
  /* A whole word or more the decoder did not use: a stream of a larger field, or not zfp's. */
  if (used + 8 <= size) {
    result = ZFPZ_TRAILING;
    goto done;
  }
  result = (int32_t)used;
done:
  if (stream) stream_close(stream);
  free(padded);
  if (zfp) zfp_stream_close(zfp);
  if (field) zfp_field_free(field);
  return result;
}

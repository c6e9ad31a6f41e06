/*
 * Decodes blocks of a Blosc1 frame (LZ4 or BloscLZ streams) inside the module's memory: the
 * streams of each block asked for are decoded into scratch (a shuffled block) or straight into
 * the output, and a shuffled block is unshuffled from scratch into the output, so the caller
 * copies the frame in once and the output out once. The header, the block's table entry and its
 * stream sizes are checked as the JavaScript decoder (@z/codecs' blosc/decompress.ts) checks
 * them, against the frame and the output's room, before any byte is read or written; anything
 * wrong returns a negative code, and the caller decodes the frame again in JavaScript, which
 * says what is wrong.
 */
#include "kernels.h"

enum {
  BAD_HEADER = -1,
  UNSUPPORTED_COMPRESSOR = -2,
  BAD_BLOCK_INDEX = -3,
  TABLE_PAST_END = -4,
  BAD_SPLIT = -5,
  BAD_BLOCK_START = -6,
  STREAM_PAST_END = -7,
  BAD_STREAM_SIZE = -8,
  CORRUPT_STREAM = -9,
  NO_ROOM = -10,
};

#define HEADER_SIZE 16
#define FLAG_BYTE_SHUFFLE 0x01
#define FLAG_MEMCPYED 0x02
#define FLAG_BIT_SHUFFLE 0x04
#define FLAG_RESERVED 0x08
#define FLAG_DONT_SPLIT 0x10
#define FORMAT_BLOSCLZ 0
#define FORMAT_LZ4 1
/* c-blosc's split rule (@z/codecs' blosc/blocksize.ts). */
#define MAX_SPLITS 16
#define MIN_BUFFERSIZE 128

static inline int64_t read_i32(const uint8_t *p) {
  int32_t x;
  __builtin_memcpy(&x, p, 4);
  return x;
}

/*
 * Decodes the `count` blocks whose indices are `blocks` of the frame frame[0, frame_len):
 * block blocks[k] goes to out + k * blocksize (out has room for out_len bytes); scratch (room
 * for scratch_len bytes) holds a shuffled block and the bit shuffle's planes, twice the block
 * size. Returns 0, or a negative code (out and scratch then hold anything).
 */
EXPORT(blosc_decode_blocks)
int32_t blosc_decode_blocks(const uint8_t *frame, uint32_t frame_len, const uint32_t *blocks,
                            uint32_t count, uint8_t *out, uint32_t out_len, uint8_t *scratch,
                            uint32_t scratch_len) {
  if (frame_len < HEADER_SIZE) return BAD_HEADER;
  const uint32_t flags = frame[2];
  const int64_t typesize = frame[3];
  const int64_t nbytes = read_i32(frame + 4);
  const int64_t blocksize = read_i32(frame + 8);
  const int64_t cbytes = read_i32(frame + 12);
  /* validateBloscHeader's checks; a frame of no bytes or stored uncompressed is not for us. */
  if (frame[0] != 2 || frame[1] != 1 || (flags & (FLAG_RESERVED | FLAG_MEMCPYED))) return BAD_HEADER;
  if (nbytes <= 0 || cbytes < HEADER_SIZE || cbytes > frame_len || typesize == 0) return BAD_HEADER;
  if (blocksize <= 0 || blocksize > nbytes) return BAD_HEADER;
  const uint32_t format = flags >> 5;
  if (format != FORMAT_LZ4 && format != FORMAT_BLOSCLZ) return UNSUPPORTED_COMPRESSOR;

  /* checkLayout's checks, for the blocks asked for. */
  const int64_t nblocks = (nbytes + blocksize - 1) / blocksize;
  const int64_t leftover = nbytes % blocksize;
  const int64_t table_end = HEADER_SIZE + 4 * nblocks;
  if (table_end > cbytes) return TABLE_PAST_END;
  for (uint32_t k = 0; k < count; k++) {
    const int64_t j = blocks[k];
    if (j >= nblocks) return BAD_BLOCK_INDEX;
    const int is_leftover = j == nblocks - 1 && leftover > 0;
    const int64_t bsize = is_leftover ? leftover : blocksize;
    const int split = !(flags & FLAG_DONT_SPLIT) && typesize <= MAX_SPLITS &&
                      bsize / typesize >= MIN_BUFFERSIZE && !is_leftover;
    const int64_t nsplits = split ? typesize : 1;
    if (bsize % nsplits != 0) return BAD_SPLIT;
    const int64_t neblock = bsize / nsplits;
    const int unshuffle_kind = (flags & FLAG_BYTE_SHUFFLE) && typesize > 1 ? 1
                               : (flags & FLAG_BIT_SHUFFLE) && bsize >= typesize ? 2
                                                                                  : 0;
    /* Room: the block's place in out, and scratch for a shuffled one (the bit shuffle's too). */
    const int64_t at = (int64_t)k * blocksize;
    if (at + bsize > (int64_t)out_len) return NO_ROOM;
    if (unshuffle_kind && (unshuffle_kind == 2 ? 2 * bsize : bsize) > (int64_t)scratch_len)
      return NO_ROOM;
    uint8_t *const dst = unshuffle_kind ? scratch : out + at;

    int64_t pos = read_i32(frame + HEADER_SIZE + 4 * j);
    if (pos < table_end || pos > cbytes - 4) return BAD_BLOCK_START;
    for (int64_t s = 0; s < nsplits; s++) {
      if (pos + 4 > cbytes) return STREAM_PAST_END;
      const int64_t size = read_i32(frame + pos);
      pos += 4;
      if (size < 0 || size > cbytes - pos) return BAD_STREAM_SIZE;
      uint8_t *const to = dst + s * neblock;
      if (size == neblock) {
        copy_bytes(to, frame + pos, (size_t)size);
      } else {
        const int32_t n =
            format == FORMAT_LZ4
                ? lz4_decode_block(frame + pos, (uint32_t)size, to, (uint32_t)neblock, 0)
                : blosclz_decode(frame + pos, (uint32_t)size, to, (uint32_t)neblock);
        if (n != neblock) return CORRUPT_STREAM;
      }
      pos += size;
    }
    if (unshuffle_kind == 1) unshuffle((uint32_t)typesize, (uint32_t)bsize, scratch, out + at);
    else if (unshuffle_kind == 2)
      bitunshuffle((uint32_t)typesize, (uint32_t)bsize, scratch, out + at, scratch + bsize);
  }
  return 0;
}

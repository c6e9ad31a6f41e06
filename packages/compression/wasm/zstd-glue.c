// The calls the zstd dictionary decoder (src/zstd/dictionary-module.ts) makes of libzstd's
// decompressor: one decompression context, and one prepared dictionary at a time, so that the
// many small frames of one dictionary (an Icechunk manifest's locations) share its parsed tables.
#include <stdlib.h>
#include "zstd/zstddeclib.c"

static ZSTD_DCtx* context;
static ZSTD_DDict* dictionary;

__attribute__((export_name("zd_malloc"))) void* zd_malloc(size_t size) { return malloc(size); }

__attribute__((export_name("zd_free"))) void zd_free(void* pointer) { free(pointer); }

// Prepares the dictionary for the next calls, replacing the previous one; 0 when it is not a
// dictionary libzstd accepts (a dictionary without zstd's magic number is raw content, accepted).
__attribute__((export_name("zd_set_dictionary"))) int zd_set_dictionary(const void* bytes,
                                                                        size_t size) {
  ZSTD_freeDDict(dictionary);
  dictionary = ZSTD_createDDict(bytes, size);
  return dictionary != NULL;
}

// Decodes the frames in src into dst (at most capacity bytes) with the prepared dictionary:
// the decoded size, or minus libzstd's error code.
__attribute__((export_name("zd_decompress"))) long zd_decompress(void* dst, size_t capacity,
                                                                 const void* src, size_t size) {
  if (context == NULL) context = ZSTD_createDCtx();
  if (context == NULL) return -(long)ZSTD_error_memory_allocation;
  size_t result = ZSTD_decompress_usingDDict(context, dst, capacity, src, size, dictionary);
  if (ZSTD_isError(result)) return -(long)ZSTD_getErrorCode(result);
  return (long)result;
}

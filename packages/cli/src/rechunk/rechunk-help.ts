/** The synopsis of `zarr rechunk`. */
export const RECHUNK_USAGE = `rechunk <src> <dst> [--path P] [--chunks a,b,c | --chunk-bytes SIZE]
       [--shards a,b,c] [--compressor none|gzip|zstd|blosc] [--format 2|3]
       [--max-memory SIZE] [--overwrite] [--json]`;

/** The options `zarr rechunk` takes. */
export const RECHUNK_OPTIONS = [
  "path",
  "format",
  "compressor",
  "chunks",
  "chunk-bytes",
  "shards",
  "max-memory",
  "overwrite",
  "json",
] as const;

/** The body of `zarr rechunk --help`. */
export const RECHUNK_HELP = `Copies the node at --path (default the whole hierarchy) from <src> to <dst> with new
chunks, shards or codecs, keeping memory within --max-memory (default 256MiB) whatever the
chunk shapes. It is zarr copy (same checks, same all-or-nothing writes, same summary) with
memory-bounded regions:

  --chunks a,b,c     one chunk shape, for arrays of that many dimensions
  --chunk-bytes SIZE each array gets chunks of at most SIZE bytes (4MiB, 1MB, 65536),
                     as close to a cube as its shape allows: axes shorter than the cube's
                     side are taken whole, the other axes share the rest equally
  --shards a,b,c     store the chunks many to a shard of this shape (Zarr v3)
  --max-memory SIZE  the memory budget of the whole process; half of it goes to the
                     regions in flight, the rest is left to the runtime

Each array is copied in regions of whole destination chunks (shards), each region made of
whole source chunks too when that fits the budget, so every source chunk is decoded once;
otherwise regions are as large as the budget allows and a source chunk may be decoded more
than once (slower, not larger). A budget below one destination shard plus one source chunk
is refused before anything is written. Sizes take B, kB, MB, GB or KiB, MiB, GiB.`;

import type { ArrayOptions } from "../create/array-metadata-builder.js";
import { type LikeOptions, optionsLike } from "../create/options-like.js";
import type { ZarrArray } from "../nodes/array.js";
import { copyArrayOptions } from "./copy-options.js";

// The creation options of fromArray's copy of a Zarr array: the defaults of a copy, with the
// options the caller gives on top.

/** Options that change how chunks are cut into shards, which the copy defaults cannot take one by one. */
const SHARD_OPTIONS = ["shards", "shardIndexLocation"] as const;

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}

/**
 * The creation options of a copy of `source` with `overrides` on top: the defaults of
 * {@link copyArrayOptions} (in `overrides.zarrFormat`, default the source's), each option
 * given replacing its part. Codecs are taken apart (filters, serializer, compressors), so that
 * `compressors` alone keeps the source's serializer (a v2 object array's `vlen-utf8` or
 * `json2`); `codecs` replaces them all, `order` replaces a transpose, `chunks` or `chunkGrid`
 * the chunk grid. A sharded source, or `shards` given, takes the `*Like` helpers' way
 * (see {@link LikeOptions}).
 */
export function copyArrayOptionsWith(source: ZarrArray, overrides: LikeOptions): ArrayOptions {
  const given = definedOnly(overrides);
  const base = copyArrayOptions(source, { zarrFormat: overrides.zarrFormat });
  if (base.codecs !== undefined || SHARD_OPTIONS.some((key) => given[key] !== undefined))
    return { attributes: source.attrs, ...optionsLike(source, overrides) };
  if (given.codecs !== undefined) {
    delete base.filters;
    delete base.serializer;
    delete base.compressors;
  }
  if (given.compressor !== undefined) delete base.compressors;
  if (given.order !== undefined && Array.isArray(base.filters))
    base.filters = base.filters.filter(
      (codec) => typeof codec === "string" || !("name" in codec) || codec.name !== "transpose",
    );
  if (given.chunks !== undefined || given.chunkGrid !== undefined) {
    delete base.chunks;
    delete base.chunkGrid;
  }
  return { ...base, ...given };
}

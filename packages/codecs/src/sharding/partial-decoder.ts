import type { Chunk, ChunkRegion } from "@z/ndarray";
import {
  type ByteRangeSource,
  memorySource,
  readSourceRanges,
  subrangeSource,
} from "../byte-source.js";
import { DecodeError } from "../errors.js";
import type { PartialDecoder, PartialIoOptions, PlaceSubchunks } from "../partial.js";
import type { PlaceTarget } from "../workers/decode-pool.js";
import type { ShardingCodec } from "./codec.js";
import type { ShardEntry, ShardIndex } from "./shard-index.js";

/**
 * Reads inner chunks of one shard through its index (read once, when the decoder is made):
 * the entries it needs, then their bytes, in one batched read, in whatever order they lie in
 * the shard. With nested sharding, each inner chunk is itself read partially, through the
 * inner codecs' own partial decoder over the inner chunk's span of the shard.
 */
export class ShardPartialDecoder implements PartialDecoder {
  readonly heldBytes: number;

  constructor(
    private readonly codec: ShardingCodec,
    private readonly source: ByteRangeSource,
    private readonly index: ShardIndex,
  ) {
    this.heldBytes = index.entries.byteLength;
  }

  /** Where inner chunk `i` is (undefined: empty), checked against the shard size when known. */
  private entry(i: number): ShardEntry | undefined {
    return this.index.entry(i, this.source.size);
  }

  async decodeSubchunks(
    coords: readonly (readonly number[])[],
    options: PartialIoOptions = {},
  ): Promise<(Chunk | undefined | null)[]> {
    const out = new Array<Chunk | undefined | null>(coords.length).fill(undefined);
    const groups = this.codec.subchunkGrid.group(coords);
    if (!this.codec.nested) {
      const { place } = options;
      const chunks = await this.decodeInnerChunks(
        groups.map((g) => g.inner),
        options,
        place && groups.map((g) => placeOf(place, g.positions)),
      );
      groups.forEach((g, k) => {
        for (const position of g.positions) out[position] = chunks[k];
      });
      return out;
    }
    // An inner chunk whose sub-chunks are all wanted is read whole, in one batch with the
    // others read whole; the others are read partially (their index, then their sub-chunks).
    const whole = groups.filter((g) => new Set(g.within.map(String)).size === this.perInner);
    const wholeStored = await this.readInnerChunks(
      whole.map((g) => g.inner),
      options,
    );
    const wholeBytes = new Map(whole.map((g, k) => [g.inner, wholeStored[k]]));
    await Promise.all(
      groups.map(async ({ inner, positions, within }) => {
        const entry = this.entry(inner);
        if (!entry) return;
        try {
          const held = wholeBytes.get(inner);
          const source = held
            ? memorySource(held)
            : subrangeSource(this.source, entry.offset, entry.nbytes);
          const decoder = await this.codec.inner.partialDecoder(source, options);
          // Only a shard deleted since its index was read has no inner shard at an indexed span.
          if (!decoder) throw new DecodeError("The shard disappeared while it was being read");
          // Regions are of this shard's sub-chunks: the inner shard returns its chunks.
          const chunks = await decoder.decodeSubchunks(within, { ...options, place: undefined });
          positions.forEach((position, k) => {
            out[position] = chunks[k];
          });
        } catch (error) {
          throw this.codec.nameInner(error, inner);
        }
      }),
    );
    return out;
  }

  /** The number of sub-chunks in one inner chunk. */
  private get perInner(): number {
    return this.codec.subchunkGrid.perInnerCount;
  }

  /**
   * The stored bytes of inner chunks (by C-order number; undefined for empty ones), read with
   * one batched read. Every entry is checked before anything is fetched.
   * @throws DecodeError for an entry past the end of the shard
   */
  private async readInnerChunks(
    inners: readonly number[],
    options: PartialIoOptions,
  ): Promise<(Uint8Array | undefined)[]> {
    const entries = inners.map((i) => this.entry(i));
    const wanted = inners.flatMap((inner, k) => {
      const entry = entries[k];
      return entry ? [{ inner, k, entry }] : [];
    });
    const out = new Array<Uint8Array | undefined>(inners.length).fill(undefined);
    if (wanted.length === 0) return out;
    // The spans may lie in any order in the shard (zarr-python writes inner chunks in Morton
    // order), with gaps; each is fetched by its own offset.
    const bytes = await readSourceRanges(
      this.source,
      wanted.map(({ entry }) => ({ offset: entry.offset, length: entry.nbytes })),
      options,
    );
    if (!bytes) throw new DecodeError("The shard disappeared while it was being read");
    wanted.forEach(({ inner, k, entry }, n) => {
      if (bytes[n].length !== entry.nbytes) {
        throw new DecodeError(
          `inner chunk [${this.codec.innerCoords(inner)}] is indexed at bytes ${entry.offset}..${entry.offset + entry.nbytes}, past the end of the shard`,
        );
      }
      out[k] = bytes[n];
    });
    return out;
  }

  /**
   * Decodes whole inner chunks (by C-order number), reading their bytes with one batched read;
   * undefined for empty ones.
   * @throws DecodeError for entries past the end of the shard, or what the inner codecs throw
   */
  async decodeInnerChunks(
    inners: readonly number[],
    options: PartialIoOptions = {},
    targets?: readonly (PlaceTarget | undefined)[],
  ): Promise<(Chunk | undefined | null)[]> {
    const stored = await this.readInnerChunks(inners, options);
    return Promise.all(
      stored.map(async (bytes, k) => {
        if (bytes === undefined) return undefined;
        const target = targets?.[k];
        if (target === undefined) return this.codec.decodeInner(bytes, inners[k], options);
        return (await this.codec.placeInner(bytes, inners[k], target, options)) ?? null;
      }),
    );
  }
}

/**
 * The place of one inner chunk's parts in a shared result: every requested position of it must
 * have regions, else it is returned whole.
 */
function placeOf(place: PlaceSubchunks, positions: readonly number[]): PlaceTarget | undefined {
  const regions: ChunkRegion[] = [];
  for (const position of positions) {
    const own = place.regions[position];
    if (own === undefined) return undefined;
    regions.push(...own);
  }
  return { out: place.out, regions, lanes: place.lanes };
}

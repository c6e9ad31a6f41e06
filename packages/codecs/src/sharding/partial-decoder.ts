import type { Chunk } from "@z/metadata";
import {
  type ByteRangeSource,
  memorySource,
  readSourceRanges,
  subrangeSource,
} from "../byte-source.js";
import { DecodeError } from "../errors.js";
import type { PartialDecoder, PartialIoOptions } from "../partial.js";
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
  ): Promise<(Chunk | undefined)[]> {
    const out = new Array<Chunk | undefined>(coords.length).fill(undefined);
    const groups = this.codec.subchunkGrid.group(coords);
    if (!this.codec.nested) {
      const chunks = await this.decodeInnerChunks(
        groups.map((g) => g.inner),
        options,
      );
      groups.forEach((g, k) => {
        for (const position of g.positions) out[position] = chunks[k];
      });
      return out;
    }
    // An inner chunk whose sub-chunks are all wanted is read whole, in one batch with the
    // others read whole; the others are read partially (their index, then their sub-chunks).
    const whole = groups.filter((g) => new Set(g.within.map(String)).size === this.perInner);
    const wholeBytes = await this.readWhole(
      whole.map((g) => g.inner),
      options,
    );
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
          if (!decoder) throw disappeared();
          const chunks = await decoder.decodeSubchunks(within, options);
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
   * The stored bytes of non-empty inner chunks (by C-order number), read in one batch.
   * @throws DecodeError for a span past the end of the shard
   */
  private async readWhole(
    inners: readonly number[],
    options: PartialIoOptions,
  ): Promise<Map<number, Uint8Array>> {
    const wanted = inners.flatMap((inner) => {
      const entry = this.entry(inner);
      return entry ? [{ inner, entry }] : [];
    });
    const out = new Map<number, Uint8Array>();
    if (wanted.length === 0) return out;
    const bytes = await readSourceRanges(
      this.source,
      wanted.map(({ entry }) => ({ offset: entry.offset, length: entry.nbytes })),
      options,
    );
    if (!bytes) throw disappeared();
    wanted.forEach(({ inner, entry }, n) => {
      this.checkLength(bytes[n], inner, entry);
      out.set(inner, bytes[n]);
    });
    return out;
  }

  /** Throws unless `bytes` has the length the entry gives (a short read ran past the end). */
  private checkLength(bytes: Uint8Array, inner: number, entry: ShardEntry): void {
    if (bytes.length !== entry.nbytes) {
      throw new DecodeError(
        `inner chunk [${this.codec.innerCoords(inner)}] is indexed at bytes ${entry.offset}..${entry.offset + entry.nbytes}, past the end of the shard`,
      );
    }
  }

  /**
   * Decodes whole inner chunks (by C-order number), reading their bytes with one batched read;
   * undefined for empty ones.
   * @throws DecodeError for entries past the end of the shard, or what the inner codecs throw
   */
  async decodeInnerChunks(
    inners: readonly number[],
    options: PartialIoOptions = {},
  ): Promise<(Chunk | undefined)[]> {
    // Every entry is checked before anything is fetched or decoded.
    const entries = inners.map((i) => this.entry(i));
    const wanted = inners.flatMap((inner, k) => {
      const entry = entries[k];
      return entry ? [{ inner, k, entry }] : [];
    });
    const out = new Array<Chunk | undefined>(inners.length).fill(undefined);
    if (wanted.length === 0) return out;
    // The spans may lie in any order in the shard (zarr-python writes inner chunks in Morton
    // order), with gaps; each is fetched by its own offset.
    const bytes = await readSourceRanges(
      this.source,
      wanted.map(({ entry }) => ({ offset: entry.offset, length: entry.nbytes })),
      options,
    );
    if (!bytes) throw disappeared();
    await Promise.all(
      wanted.map(async ({ inner, k, entry }, n) => {
        this.checkLength(bytes[n], inner, entry);
        out[k] = await this.codec.decodeInner(bytes[n], inner, options);
      }),
    );
    return out;
  }
}

function disappeared(): DecodeError {
  return new DecodeError("The shard disappeared while it was being read");
}

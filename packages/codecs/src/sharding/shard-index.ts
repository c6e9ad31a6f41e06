import { DecodeError } from "../errors.js";

/** The marker of an empty inner chunk: offset and nbytes both 2^64-1. */
const EMPTY_ENTRY = 0xffff_ffff_ffff_ffffn;

/** Where one inner chunk's bytes are in its shard. */
export interface ShardEntry {
  /** Byte offset from the start of the shard. */
  offset: number;
  /** Byte count. */
  nbytes: number;
}

/**
 * A decoded shard index: for each inner chunk (C order over the chunks of a shard), its
 * offset and size in the shard, or nothing for an empty chunk.
 */
export class ShardIndex {
  constructor(
    /** `2 * chunksPerShard` uint64 values: offset, nbytes, offset, nbytes, ... */
    readonly entries: BigUint64Array,
  ) {}

  /** An index with every inner chunk empty. */
  static empty(chunks: number): ShardIndex {
    return new ShardIndex(new BigUint64Array(chunks * 2).fill(EMPTY_ENTRY));
  }

  /** The number of inner chunks. */
  get length(): number {
    return this.entries.length / 2;
  }

  /**
   * Where inner chunk `i` is, or undefined when it is empty.
   * @param shardSize when known, entries reaching past it are a DecodeError
   * @throws DecodeError for an entry that is half empty or does not fit in 2^53
   */
  entry(i: number, shardSize?: number): ShardEntry | undefined {
    const offset = this.entries[2 * i];
    const nbytes = this.entries[2 * i + 1];
    if (offset === EMPTY_ENTRY && nbytes === EMPTY_ENTRY) return undefined;
    if (offset === EMPTY_ENTRY || nbytes === EMPTY_ENTRY) {
      throw new DecodeError(
        `Shard index entry ${i} is half empty (offset ${offset}, nbytes ${nbytes}); the index is corrupt`,
      );
    }
    const end = offset + nbytes;
    if (
      end > BigInt(Number.MAX_SAFE_INTEGER) ||
      (shardSize !== undefined && end > BigInt(shardSize))
    ) {
      throw new DecodeError(
        `Shard index entry ${i} points to bytes ${offset}..${end}, past the end of the shard${shardSize === undefined ? "" : ` (${shardSize} bytes)`}`,
      );
    }
    return { offset: Number(offset), nbytes: Number(nbytes) };
  }

  /** Sets where inner chunk `i` is (undefined: empty). */
  set(i: number, entry: ShardEntry | undefined): void {
    this.entries[2 * i] = entry ? BigInt(entry.offset) : EMPTY_ENTRY;
    this.entries[2 * i + 1] = entry ? BigInt(entry.nbytes) : EMPTY_ENTRY;
  }

  /** Whether every inner chunk is empty. */
  isEmpty(): boolean {
    return this.entries.every((v) => v === EMPTY_ENTRY);
  }
}

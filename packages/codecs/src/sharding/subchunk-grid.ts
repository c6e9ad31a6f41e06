/**
 * The sub-chunk grid of a shard, and where each sub-chunk lies: in which inner chunk, and where
 * inside it. Sub-chunks are the inner chunks themselves, or (nested sharding) the sub-chunks of
 * the inner chunks' own partial I/O.
 */
import { CodecError } from "../errors.js";

/** Sub-chunks of a shard, grouped by the inner chunk holding them. */
export interface InnerGroup {
  /** The inner chunk's C-order number. */
  inner: number;
  /** The positions of its sub-chunks in the list they came from. */
  positions: number[];
  /** Their coordinates inside the inner chunk's own sub-chunk grid. */
  within: number[][];
}

/** Maps sub-chunk coordinates of a shard onto its inner chunks. */
export class SubchunkGrid {
  /** Sub-chunks per inner chunk along each axis. */
  private readonly perInner: number[];
  /** The number of sub-chunks in one inner chunk. */
  readonly perInnerCount: number;

  constructor(
    /** Inner chunks per shard along each axis. */
    private readonly chunksPerShard: readonly number[],
    innerShape: readonly number[],
    /** The sub-chunk shape (divides `innerShape`). */
    readonly subchunkShape: readonly number[],
  ) {
    this.perInner = innerShape.map((n, axis) => n / subchunkShape[axis]);
    this.perInnerCount = this.perInner.reduce((a, b) => a * b, 1);
  }

  /**
   * Groups sub-chunk coordinates by inner chunk, in order of first appearance.
   * @throws CodecError for coordinates outside the shard
   */
  group(coords: readonly (readonly number[])[]): InnerGroup[] {
    const groups = new Map<number, InnerGroup>();
    coords.forEach((c, position) => {
      let inner = 0;
      const within = new Array<number>(c.length);
      for (let axis = 0; axis < c.length; axis++) {
        const outer = Math.floor(c[axis] / this.perInner[axis]);
        if (!(outer >= 0 && outer < this.chunksPerShard[axis]) || c.length !== this.perInner.length)
          throw new CodecError(
            `Sub-chunk [${c}] is outside the shard's grid of [${this.chunksPerShard.map((n, a) => n * this.perInner[a])}] sub-chunks`,
          );
        inner = inner * this.chunksPerShard[axis] + outer;
        within[axis] = c[axis] - outer * this.perInner[axis];
      }
      let group = groups.get(inner);
      if (!group) groups.set(inner, (group = { inner, positions: [], within: [] }));
      group.positions.push(position);
      group.within.push(within);
    });
    return [...groups.values()];
  }
}

import type { ChunkStore } from "./chunk-store.js";

/**
 * A few buffers that whole chunks are read into, one per concurrent read, reused from chunk to
 * chunk: no allocation, page faults or garbage per stored chunk. A stored chunk larger than the
 * buffers is read the usual way once, and later buffers are made that large.
 */
export class ReadBuffers {
  private readonly free: Uint8Array[] = [];

  constructor(
    private readonly stored: ChunkStore,
    private size: number,
    /** Makes a buffer of `size` bytes (in shared memory, for workers to read in place). */
    private readonly make: (size: number) => Uint8Array = (size) => new Uint8Array(size),
  ) {}

  /**
   * Reads the chunk at `coords` and hands its bytes to `use` (undefined: never written), with
   * whether they lie in one of the reused buffers: such bytes are `use`'s only until it settles.
   */
  async read<T>(
    coords: number[],
    signal: AbortSignal | undefined,
    use: (bytes: Uint8Array | undefined, reused: boolean) => Promise<T>,
  ): Promise<T> {
    let buffer = this.free.pop();
    if (buffer === undefined || buffer.length < this.size) buffer = this.make(this.size);
    try {
      const read = await this.stored.getInto(coords, buffer, { signal });
      if (typeof read !== "number") return await use(read, read !== undefined);
      this.size = Math.max(this.size, read);
      return await use(await this.stored.get(coords, { signal }), false);
    } finally {
      this.free.push(buffer);
    }
  }
}

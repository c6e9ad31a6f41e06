import type { ChunkDecodePool, ChunkSpec } from "@z/codecs";
import { defaultDecodePool, isMissingRegistration } from "@z/codecs/internal";
import type { Chunk, NamedConfig } from "@z/metadata";

/**
 * Sends one kind of chunk (an array's chunks, or a sharded array's inner chunks) to the worker
 * pool a read names, or the default pool. A worker that lacks a codec or data type registered
 * only on this thread sends these chunks back to inline decoding from then on.
 */
export class PoolDecoder {
  private workersLackRegistration = false;

  constructor(
    private readonly codecs: readonly NamedConfig[],
    private readonly spec: ChunkSpec,
    private readonly zarrFormat: 2 | 3,
  ) {}

  /** The pool a read should decode in, or undefined for inline. */
  poolFor(options: { workers?: ChunkDecodePool | false }): ChunkDecodePool | undefined {
    if (this.workersLackRegistration) return undefined;
    return options.workers === false ? undefined : (options.workers ?? defaultDecodePool());
  }

  /**
   * Decodes in the pool; on a missing registration, decodes inline instead (`again` gives the
   * bytes back when they were transferred away).
   */
  async decode(
    pool: ChunkDecodePool,
    bytes: Uint8Array,
    options: { signal?: AbortSignal; transfer?: boolean },
    inline: (bytes: Uint8Array) => Promise<Chunk>,
    again: () => Promise<Uint8Array | undefined> = async () => bytes,
  ): Promise<Chunk> {
    const { zarrFormat } = this;
    try {
      return await pool.decode(bytes, this.codecs, this.spec, { zarrFormat, ...options });
    } catch (error) {
      if (!isMissingRegistration(error)) throw error;
      this.workersLackRegistration = true;
      const stored = bytes.byteLength === 0 && options.transfer ? await again() : bytes;
      if (stored === undefined) throw error;
      return inline(stored);
    }
  }
}

import type { ChunkCacheStats } from "@z/zarr";

/** The time and store reads of reading one region again. */
export interface RereadStat {
  /** The first read (which fills the cache, when there is one). */
  firstSeconds: number;
  firstReads: number;
  /** The median of the re-reads, and the store reads of one. */
  seconds: number;
  reads: number;
}

/** One codec and layout. */
export interface ChunkCacheResult {
  codec: string;
  layout: "plain" | "sharded";
  chunks: number;
  uncached: RereadStat;
  cached: RereadStat;
  /** Re-read time without the cache over re-read time with it. */
  ratio: number;
  /** The cache's counters after the re-reads. */
  stats: ChunkCacheStats;
}

/** A whole chunk cache benchmark run. */
export interface ChunkCacheReport {
  config: { edge: number; chunk: number; region: number; repeats: number; node: string };
  results: ChunkCacheResult[];
}

export const CACHE_SIZES: Record<string, [edge: number, chunk: number]>;
export function benchChunkCache(
  options: { size?: string; codecs?: string[]; repeats?: number },
  context: { dataDir: string; say?: (line: string) => void },
): Promise<ChunkCacheReport>;
export function formatChunkCacheReport(report: ChunkCacheReport): string;

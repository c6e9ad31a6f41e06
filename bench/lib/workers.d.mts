import type { ChunkDecodePool } from "@z/codecs";
export function poolFor(count: number): ChunkDecodePool | undefined;
export function closePool(): void;

import type { Volume } from "./types.mjs";
export function cStrides(shape: readonly number[]): number[];
export function prng(seed: number): () => number;
export function makeVolume(shape: readonly number[], seed?: number): Volume;
export function assertSameArray(
  result: { data: unknown; shape: number[]; stride?: number[] },
  expected: Volume,
  label: string,
): void;
export function extractRegion(
  volume: Volume,
  start: readonly number[],
  size: readonly number[],
): Volume;

import type { DataType } from "@z/metadata";
import type { Chunk, ChunkRegion, Container } from "@z/ndarray";
import type { ChunkLayout } from "./chunk-layout.js";

/** A value to write into a selection: a scalar for every element, or a chunk of the selection's shape. */
export type WriteSource = { scalar: unknown } | { chunk: Chunk };

/**
 * What a selection takes from one chunk, and how its elements move between the chunk and the
 * selection's C-order result. Every selection mode (basic, orthogonal, coordinate, mask,
 * block) produces these, so reading and writing (and sharding) need to know only this.
 */
export interface ChunkPart {
  /** The chunk's grid coordinates. */
  readonly coords: readonly number[];
  /** Copies the selected elements of a decoded chunk into the result. */
  read(chunk: Chunk, out: Container, lanes: number): void;
  /** Writes `value` into the result positions of this part (for chunks that were never written). */
  fill(out: Container, dataType: DataType, value: unknown): void;
  /** Writes this part of `source` into a C-order chunk. */
  write(chunk: Chunk, source: WriteSource, dataType: DataType): void;
  /**
   * Whether the part covers every element of its chunk inside the array, so a write can
   * replace the chunk without reading it. `layout` is the grid the part was projected onto.
   */
  covers(layout: ChunkLayout, arrayShape: readonly number[]): boolean;
  /**
   * Whether the part takes the elements of its chunk in the chunk's own order (every axis
   * forward from index 0), so a result covering the whole chunk is the chunk itself. Reversed
   * slices, permuted index arrays and points never are. Absent means no.
   */
  inOrder?(): boolean;
  /**
   * The part as a strided region of its chunk and its place in the C-order result, plain
   * numbers a worker can take to copy the part itself. Absent where the part is no strided
   * region (index arrays, masks, points).
   */
  region?(): ChunkRegion;
}

/**
 * A selection resolved against an array: the shape of its result and the parts it takes from
 * each chunk it touches.
 */
export interface Indexer {
  /** The result's shape. */
  readonly shape: readonly number[];
  /** The chunk parts, generated lazily in chunk order. */
  parts(): Iterable<ChunkPart>;
  /** How many chunks the selection touches. */
  partCount(): number;
  /** Whether every part offers {@link ChunkPart.region} (a selection of integers and slices). */
  readonly strided?: boolean;
}

import { type ChunkAxis, RegularChunkAxis } from "./chunk-axis.js";
import { validateChunkShape } from "./chunk-grid-shape.js";
import { UnsupportedExtensionError } from "./errors.js";
import type { NamedConfig } from "./extension.js";
import type { JsonObject } from "./json.js";
import { rectilinearGridFactory } from "./rectilinear-grid.js";

/** How an array's index space is cut into chunks. */
export interface ChunkGrid {
  /** The registered name (`regular`, `rectilinear`). */
  readonly name: string;
  /**
   * The shape of every chunk, when all chunks have one shape (a `regular` grid, whose edge
   * chunks are stored at this full shape too); undefined when chunk shapes differ.
   */
  readonly chunkShape: readonly number[] | undefined;
  /** Per axis, where the chunk boundaries lie. */
  readonly axes: readonly ChunkAxis[];
  /** The largest edge length along each axis (what one decoded chunk may hold at most). */
  readonly maxChunkShape: readonly number[];
  /** The number of chunks along each dimension for an array shape. */
  gridShape(arrayShape: readonly number[]): number[];
  /** The shape the chunk at grid coordinates `coords` is stored at. */
  chunkShapeAt(coords: readonly number[]): number[];
  /**
   * Checks that the grid covers an array shape (at opening, creation and resize).
   * @throws ChunkGridError naming `where`, the axis and both extents
   */
  checkArrayShape(arrayShape: readonly number[], where: string): void;
  /** The metadata JSON form. */
  toJson(): JsonObject;
}

/** The `regular` grid: every chunk has the same shape. */
export class RegularChunkGrid implements ChunkGrid {
  readonly name = "regular";
  readonly axes: readonly ChunkAxis[];
  constructor(readonly chunkShape: readonly number[]) {
    this.axes = chunkShape.map((step) => new RegularChunkAxis(step));
  }
  get maxChunkShape(): readonly number[] {
    return this.chunkShape;
  }
  gridShape(arrayShape: readonly number[]): number[] {
    return arrayShape.map((extent, i) => Math.ceil(extent / this.chunkShape[i]));
  }
  chunkShapeAt(_coords: readonly number[]): number[] {
    return [...this.chunkShape];
  }
  checkArrayShape(_arrayShape: readonly number[], _where: string): void {}
  toJson(): JsonObject {
    return { name: "regular", configuration: { chunk_shape: [...this.chunkShape] } };
  }
}

/** Builds a chunk grid from its metadata for an array of `ndim` dimensions. */
export type ChunkGridFactory = (config: NamedConfig, ndim: number, where: string) => ChunkGrid;

const grids = new Map<string, ChunkGridFactory>([
  [
    "regular",
    (config, ndim, where) =>
      new RegularChunkGrid(
        validateChunkShape(config.configuration.chunk_shape, ndim, `${where} chunk_grid`),
      ),
  ],
  ["rectilinear", rectilinearGridFactory],
]);

/**
 * Registers a chunk grid extension under its name, so metadata naming it opens. The factory
 * checks the configuration (throwing a `MetadataError` naming `where`) and returns a
 * {@link ChunkGrid}; its `axes` are all reading, writing and indexing need.
 * @example
 * ```ts
 * // A grid whose chunks double in length along every axis: 1, 2, 4, 8, ...
 * class DoublingAxis implements ChunkAxis {
 *   readonly extent = Number.POSITIVE_INFINITY;
 *   readonly maxSize = 2 ** 30;
 *   readonly step = undefined;
 *   chunkOf(index: number) { return Math.floor(Math.log2(index + 1)); }
 *   start(chunk: number) { return 2 ** chunk - 1; }
 *   size(chunk: number) { return 2 ** chunk; }
 *   count(length: number) { return length <= 0 ? 0 : this.chunkOf(length - 1) + 1; }
 *   edgeLengths() { return Array.from({ length: 31 }, (_, k) => 2 ** k); }
 * }
 * registerChunkGrid("doubling", (config, ndim) => {
 *   const axes = Array.from({ length: ndim }, () => new DoublingAxis());
 *   return {
 *     name: "doubling",
 *     chunkShape: undefined,
 *     axes,
 *     maxChunkShape: axes.map((a) => a.maxSize),
 *     gridShape: (shape) => shape.map((n, i) => axes[i].count(n)),
 *     chunkShapeAt: (coords) => chunkShapeAt(axes, coords),
 *     checkArrayShape: () => {},
 *     toJson: () => ({ name: "doubling" }),
 *   };
 * });
 * ```
 */
export function registerChunkGrid(name: string, factory: ChunkGridFactory): void {
  grids.set(name, factory);
}

/**
 * The chunk grid v3 metadata describes.
 * @throws UnsupportedExtensionError for an unknown grid
 */
export function resolveChunkGrid(config: NamedConfig, ndim: number, where: string): ChunkGrid {
  const factory = grids.get(config.name);
  if (!factory) {
    throw new UnsupportedExtensionError(
      `${where}: unknown chunk_grid "${config.name}"; known: ${[...grids.keys()].join(", ")}`,
    );
  }
  return factory(config, ndim, where);
}

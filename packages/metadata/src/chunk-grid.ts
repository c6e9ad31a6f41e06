import { MetadataError, UnsupportedExtensionError } from "./errors.js";
import type { NamedConfig } from "./extension.js";
import { formatValue } from "./format-value.js";
import type { JsonObject } from "./json.js";

/** How an array's index space is cut into chunks. */
export interface ChunkGrid {
  /** The registered name (`regular`). */
  readonly name: string;
  /** The shape of every chunk (edge chunks are stored at this full shape too). */
  readonly chunkShape: readonly number[];
  /** The number of chunks along each dimension for an array shape. */
  gridShape(arrayShape: readonly number[]): number[];
  /** The metadata JSON form. */
  toJson(): JsonObject;
}

/** The `regular` grid: every chunk has the same shape. */
export class RegularChunkGrid implements ChunkGrid {
  readonly name = "regular";
  constructor(readonly chunkShape: readonly number[]) {}
  gridShape(arrayShape: readonly number[]): number[] {
    return arrayShape.map((extent, i) => Math.ceil(extent / this.chunkShape[i]));
  }
  toJson(): JsonObject {
    return { name: "regular", configuration: { chunk_shape: [...this.chunkShape] } };
  }
}

/**
 * Checks a chunk shape: one positive integer per dimension, holding fewer than 2^53 elements.
 * Zero-length chunks are refused; they would make every index computation divide by zero.
 */
export function validateChunkShape(chunkShape: unknown, ndim: number, where: string): number[] {
  const shown = () => formatValue(chunkShape, { bigint: "suffix" });
  if (!Array.isArray(chunkShape) || chunkShape.length !== ndim) {
    throw new MetadataError(`${where}: the chunk shape must list ${ndim} extents, got ${shown()}`);
  }
  let elements = 1;
  for (const [axis, extent] of chunkShape.entries()) {
    if (typeof extent !== "number" || !Number.isSafeInteger(extent) || extent < 1) {
      throw new MetadataError(
        `${where}: chunk extents must be positive integers below 2^53, got ${formatValue(extent, { bigint: "suffix" })} at axis ${axis} of ${shown()}`,
      );
    }
    elements *= extent;
  }
  if (elements > Number.MAX_SAFE_INTEGER) {
    throw new MetadataError(
      `${where}: the chunk shape ${shown()} holds more than 2^53 elements, too many to index exactly`,
    );
  }
  return chunkShape as number[];
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
]);

/** Registers a chunk grid extension under its name. */
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

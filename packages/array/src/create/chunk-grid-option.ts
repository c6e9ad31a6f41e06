import {
  type ChunkGrid,
  ChunkGridError,
  isJsonObject,
  type JsonObject,
  MetadataError,
  parseNamedConfig,
  type RectilinearAxisSpec,
  RectilinearChunkGrid,
  RegularChunkGrid,
  resolveChunkGrid,
  validateChunkShape,
} from "@z/metadata";
import { guessChunks } from "./chunking.js";
import { shown } from "./option-checks.js";

/**
 * The `chunks` creation option: per axis, a chunk length (a regular grid when every axis has
 * one), or a list of edge lengths where `[V, N]` stands for N chunks of length V (a
 * `rectilinear` grid).
 */
export type ChunksOption = readonly (number | RectilinearAxisSpec)[];

/**
 * The chunk grid creation options describe: an explicit `chunkGrid` (metadata JSON of any
 * registered grid), `chunks` with a list on some axis (`rectilinear`), or a chunk shape
 * (`regular`, guessed when absent). The grid must cover `shape`.
 * @throws MetadataError for invalid options; ChunkGridError for a grid that does not cover the
 * shape, or a non-regular grid with v2
 */
export function chunkGridOption(
  options: { chunks?: ChunksOption; chunkGrid?: JsonObject },
  shape: readonly number[],
  itemSize: number,
  format: 2 | 3,
): ChunkGrid {
  const { chunks, chunkGrid } = options;
  let grid: ChunkGrid;
  if (chunkGrid !== undefined) {
    if (chunks !== undefined)
      throw new MetadataError("Give either the chunks or the chunkGrid option, not both");
    if (!isJsonObject(chunkGrid))
      throw new MetadataError(
        `The chunkGrid option must be chunk_grid metadata, got ${shown(chunkGrid)}`,
      );
    grid = resolveChunkGrid(
      parseNamedConfig(chunkGrid, "chunkGrid option"),
      shape.length,
      "chunkGrid option",
    );
  } else if (Array.isArray(chunks) && chunks.some((axis) => Array.isArray(axis))) {
    grid = rectilinearOption(chunks, shape, "chunks option");
  } else {
    const regular = validateChunkShape(
      chunks !== undefined ? chunks : guessChunks(shape, itemSize),
      shape.length,
      "chunks option",
    );
    return new RegularChunkGrid(regular);
  }
  if (format !== 3 && grid.name !== "regular")
    throw new ChunkGridError(
      `Zarr v2 has only regular chunk grids; the ${grid.name} grid needs zarrFormat 3`,
    );
  grid.checkArrayShape(shape, "createArray");
  return grid;
}

/**
 * The shard grid of the `shards` option: a shard shape (`regular`), or per axis a list of shard
 * edge lengths (`rectilinear`, shards of different shapes). Every shard edge length must be a
 * multiple of the inner chunk's, so each shard holds a whole number of inner chunks.
 * @throws MetadataError for an edge length that is not a multiple; ChunkGridError for a grid
 * that does not cover the shape
 */
export function shardGridOption(
  shards: ChunksOption,
  shape: readonly number[],
  chunks: readonly number[],
): ChunkGrid {
  const grid: ChunkGrid =
    Array.isArray(shards) && shards.some((axis) => Array.isArray(axis))
      ? rectilinearOption(shards, shape, "shards option")
      : new RegularChunkGrid(validateChunkShape(shards, shape.length, "shards option"));
  grid.axes.forEach((axis, i) => {
    const bad = axis.edgeLengths().find((n) => n % chunks[i] !== 0);
    if (bad !== undefined) {
      throw new MetadataError(
        `The shard shape ${shown(shards)} must be a multiple of the chunk shape [${chunks}] (axis ${i} has a shard of length ${bad})`,
      );
    }
  });
  grid.checkArrayShape(shape, "createArray");
  return grid;
}

function rectilinearOption(
  chunks: ChunksOption,
  shape: readonly number[],
  where: string,
): RectilinearChunkGrid {
  if (chunks.length !== shape.length) {
    throw new MetadataError(
      `${where}: the chunk shape must list ${shape.length} extents, got ${shown(chunks)}`,
    );
  }
  return new RectilinearChunkGrid(chunks, where);
}

/** A grid as the `chunks` (or `shards`) option that makes it again: the chunk shape, or the `rectilinear` edge lengths. */
export function chunksOptionOf(grid: ChunkGrid): ChunksOption | undefined {
  if (grid.name === "regular") return grid.chunkShape;
  if (grid instanceof RectilinearChunkGrid) return grid.specs;
  return undefined;
}

import {
  type ChunkGrid,
  ChunkGridError,
  isJsonObject,
  type JsonObject,
  MetadataError,
  parseNamedConfig,
  RectilinearChunkGrid,
  type RectilinearAxisSpec,
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
 * shape, or a non-regular grid with v2 or shards
 */
export function chunkGridOption(
  options: { chunks?: ChunksOption; chunkGrid?: JsonObject; shards?: readonly number[] },
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
      throw new MetadataError(`The chunkGrid option must be chunk_grid metadata, got ${shown(chunkGrid)}`);
    grid = resolveChunkGrid(parseNamedConfig(chunkGrid, "chunkGrid option"), shape.length, "chunkGrid option");
  } else if (Array.isArray(chunks) && chunks.some((axis) => Array.isArray(axis))) {
    if (chunks.length !== shape.length) {
      throw new MetadataError(
        `chunks option: the chunk shape must list ${shape.length} extents, got ${shown(chunks)}`,
      );
    }
    grid = new RectilinearChunkGrid(chunks, "chunks option");
  } else {
    const regular = validateChunkShape(
      chunks !== undefined ? chunks : guessChunks(shape, itemSize),
      shape.length,
      "chunks option",
    );
    return new RegularChunkGrid(regular);
  }
  if (format !== 3 && grid.name !== "regular")
    throw new ChunkGridError(`Zarr v2 has only regular chunk grids; the ${grid.name} grid needs zarrFormat 3`);
  if (options.shards && grid.name !== "regular") {
    throw new ChunkGridError(
      `The shards option needs a regular chunk grid, got the ${grid.name} grid ${shown(grid.toJson())}`,
    );
  }
  grid.checkArrayShape(shape, "createArray");
  return grid;
}

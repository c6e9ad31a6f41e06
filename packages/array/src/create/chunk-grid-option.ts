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
 * zarr-python's shorthands of the `chunks` option: one length for every axis (`5`), `-1` for
 * one chunk over a whole axis (alone, or in a list: `[-1, 10]`), `"auto"` for the default guess.
 */
export type ChunksShorthand = number | "auto";

/**
 * The `chunks` option with zarr-python's shorthands expanded to one entry per axis (or
 * undefined for the guess).
 * @throws MetadataError for a single length that is not a positive integer or -1
 */
export function expandChunks(
  chunks: ChunksOption | ChunksShorthand | undefined,
  shape: readonly number[],
): ChunksOption | undefined {
  if (chunks === undefined || chunks === "auto") return undefined;
  const whole = (extent: number) => Math.max(1, extent);
  if (typeof chunks === "number") {
    if (chunks !== -1 && !(Number.isSafeInteger(chunks) && chunks > 0)) {
      throw new MetadataError(
        `The chunks option must be a positive integer (the length along every axis), -1 (whole axes), "auto", or one entry per axis; got ${shown(chunks)}`,
      );
    }
    return shape.map((extent) => (chunks === -1 ? whole(extent) : chunks));
  }
  if (!Array.isArray(chunks) || !chunks.includes(-1)) return chunks;
  return chunks.map((c, i) => (c === -1 && i < shape.length ? whole(shape[i]) : c));
}

/**
 * The chunk grid creation options describe: an explicit `chunkGrid` (metadata JSON of any
 * registered grid), `chunks` with a list on some axis (`rectilinear`), or a chunk shape
 * (`regular`, guessed when absent or `"auto"`; see {@link ChunksShorthand}). The grid must
 * cover `shape`.
 * @throws MetadataError for invalid options; ChunkGridError for a grid that does not cover the
 * shape, or a non-regular grid with v2
 */
export function chunkGridOption(
  options: { chunks?: ChunksOption | ChunksShorthand; chunkGrid?: JsonObject },
  shape: readonly number[],
  itemSize: number,
  format: 2 | 3,
): ChunkGrid {
  const { chunkGrid } = options;
  const chunks = expandChunks(options.chunks, shape);
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

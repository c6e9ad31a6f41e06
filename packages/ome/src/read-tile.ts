import type { ReadOptions } from "@z/array";
import { slice } from "@z/indexing";
import type { Container } from "@z/ndarray";
import { throwIfAborted } from "@z/store-core";
import { axisRoles } from "./axis-roles.js";
import { OmeOptionError } from "./errors.js";
import type { MultiscaleImage, MultiscaleLevel } from "./multiscale-image.js";

/** What {@link readTile} reads: a rectangle of one x-y plane of one level. */
export interface TileRequest {
  /** The level: its index in `image.levels`, or the level itself (as `pickLevel` returns it). */
  level: number | MultiscaleLevel;
  /** Left edge, in the level's pixels. */
  x: number;
  /** Top edge, in the level's pixels. */
  y: number;
  /** Width in pixels; the part beyond the level's right edge is left out. */
  width: number;
  /** Height in pixels; the part beyond the level's bottom edge is left out. */
  height: number;
  /** The plane along z (default 0). */
  z?: number;
  /** The channel (default 0). */
  c?: number;
  /** The time point (default 0). */
  t?: number;
  /** The index along any other axis, by axis name (default 0). */
  indices?: Record<string, number>;
  /** Abort the read: it rejects with the `AbortError`, and no further chunk is requested. */
  signal?: AbortSignal;
  /** How many chunks to read at once. */
  concurrency?: number;
  /**
   * Where the chunks are decoded: a worker pool (`createWorkerPool` from `@z/codecs/workers`),
   * or `false` for the calling thread; as the `workers` option of `get`.
   */
  workers?: ReadOptions["workers"];
}

/** A tile as read: row-major pixels of the part of the request that lies in the level. */
export interface Tile<C extends Container = Container> {
  /** The pixels, row by row (`data[row * width + column]`). */
  data: C;
  /** `[height, width]`. */
  shape: [number, number];
  /** Left edge read, in the level's pixels (the request's, clipped to the level). */
  x: number;
  /** Top edge read. */
  y: number;
  /** Width read (the request's, clipped to the level). */
  width: number;
  /** Height read. */
  height: number;
  /** The level read. */
  level: MultiscaleLevel;
}

function levelOf(image: MultiscaleImage, level: number | MultiscaleLevel): MultiscaleLevel {
  if (typeof level !== "number") return level;
  const found = Number.isInteger(level) ? image.levels[level] : undefined;
  if (found === undefined)
    throw new OmeOptionError(
      "level",
      `must be a level index from 0 to ${image.levels.length - 1}, found ${level}`,
    );
  return found;
}

function integer(option: string, value: number): number {
  if (!Number.isSafeInteger(value))
    throw new OmeOptionError(option, `must be an integer, found ${value}`);
  return value;
}

/**
 * Reads a tile: a rectangle of one x-y plane at one level, at the given z, c, t (and other
 * axes' indices), reading only the chunks the rectangle touches. The rectangle is in the
 * level's pixels and is clipped to the level: a tile over the right or bottom edge comes back
 * narrower or shorter, with the `x`, `y`, `width`, `height` actually read. The pixels are row
 * major (y then x) whatever the order of the array's dimensions.
 *
 * @example
 * ```ts
 * const level = pickLevel(image, { width: 512, height: 512 });
 * const tile = await readTile(image, { level, x: 0, y: 0, width: 256, height: 256, c: 1, signal });
 * console.log(tile.shape, tile.data[0]);
 * ```
 * @throws OmeOptionError for a level that does not exist, a rectangle that lies outside the
 *   level, or an index outside its axis; AbortError when `signal` aborts
 * @category OME-Zarr
 */
export async function readTile(image: MultiscaleImage, request: TileRequest): Promise<Tile> {
  throwIfAborted(request.signal);
  const level = levelOf(image, request.level);
  const roles = axisRoles(image.axes);
  const { shape } = level;
  const x0 = Math.max(0, integer("x", request.x));
  const y0 = Math.max(0, integer("y", request.y));
  const x1 = Math.min(shape[roles.x], request.x + integer("width", request.width));
  const y1 = Math.min(shape[roles.y], request.y + integer("height", request.height));
  if (request.width <= 0 || request.height <= 0 || x1 <= x0 || y1 <= y0)
    throw new OmeOptionError(
      "tile",
      `x ${request.x}, y ${request.y}, width ${request.width}, height ${request.height} holds no pixel of level ${level.index} (${shape[roles.x]} × ${shape[roles.y]})`,
    );
  const selection = image.axes.map((axis, d) => {
    if (d === roles.x) return slice(x0, x1);
    if (d === roles.y) return slice(y0, y1);
    const named = d === roles.z ? "z" : d === roles.c ? "c" : d === roles.t ? "t" : undefined;
    const option = named ?? `indices.${axis.name}`;
    const given = named !== undefined ? request[named] : request.indices?.[axis.name];
    const index = integer(option, given ?? request.indices?.[axis.name] ?? 0);
    if (index < 0 || index >= shape[d])
      throw new OmeOptionError(
        option,
        `${index} is outside the axis "${axis.name}" (size ${shape[d]})`,
      );
    return index;
  });
  const options: ReadOptions = { signal: request.signal };
  if (request.concurrency !== undefined) options.concurrency = request.concurrency;
  if (request.workers !== undefined) options.workers = request.workers;
  const read = await level.array.get(selection, options);
  const width = x1 - x0;
  const height = y1 - y0;
  const data = roles.y < roles.x ? read.data : transposed(read.data, width, height);
  return { data, shape: [height, width], x: x0, y: y0, width, height, level };
}

/** The data of an x-major read (the x axis before y in the array) in row-major order. */
function transposed(data: Container, width: number, height: number): Container {
  const from = data as unknown as ArrayLike<unknown>;
  const out = (data as unknown as { slice: () => unknown[] }).slice() as unknown as {
    [i: number]: unknown;
  };
  for (let col = 0; col < width; col++)
    for (let row = 0; row < height; row++) out[row * width + col] = from[col * height + row];
  return out as unknown as Container;
}

import { slice, type ZarrArray } from "@z/zarr";
import {
  addToHistogram,
  type NumericData,
  type NumericStats,
  StatsAccumulator,
  type StatsKind,
} from "./numeric-stats.js";
import { StatsUnsupportedError } from "./stats-errors.js";

/** Options of {@link arrayStats}. */
export interface ArrayStatsOptions {
  /** Histogram bins (default 10). */
  bins?: number;
  /** The most bytes one read may hold (default 64 MiB): regions are whole shards up to it. */
  regionBytes?: number;
  /** Abort the reads. */
  signal?: AbortSignal;
}

/** The default number of histogram bins. */
export const DEFAULT_BINS = 10;

/** Why the values of a data type kind have no statistics, for the error. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  complex: "complex numbers have no order, so no minimum, maximum or histogram",
  string: "strings are not numbers",
  bytes: "byte strings are not numbers",
  datetime: "datetimes are not summarised (read them with zarr get)",
  timedelta: "timedeltas are not summarised (read them with zarr get)",
};

/**
 * What statistics count for an array's data type.
 * @throws StatsUnsupportedError naming the array and saying why for other types
 */
export function statsKindOf(array: ZarrArray): StatsKind {
  const kind = array.dataType.kind as string;
  if (kind === "int" || kind === "uint") return "int";
  if (kind === "float" || kind === "bool") return kind;
  throw new StatsUnsupportedError(
    `/${array.path} is ${array.dtype}: ${UNSUPPORTED[kind] ?? "its elements are not numbers"}; statistics need integers, floats or booleans`,
    { path: array.path },
  );
}

/**
 * The regions an array is read in: whole shards when one fits `maxBytes`, otherwise its
 * (inner) chunks, in C order.
 */
export function* readRegions(
  array: ZarrArray,
  maxBytes: number,
): Generator<ReturnType<typeof slice>[]> {
  const { shape, shards } = array;
  const bytes = (box: number[]) => box.reduce((a, b) => a * b, array.dataType.itemSize);
  const box = shards && bytes(shards) <= maxBytes ? shards : array.chunks;
  const grid = shape.map((n, axis) => Math.ceil(n / box[axis]));
  if (grid.some((n) => n === 0)) return;
  const coords = grid.map(() => 0);
  for (;;) {
    yield coords.map((c, axis) => slice(c * box[axis], Math.min((c + 1) * box[axis], shape[axis])));
    let axis = grid.length - 1;
    while (axis >= 0 && ++coords[axis] === grid[axis]) coords[axis--] = 0;
    if (axis < 0) return;
  }
}

/**
 * The statistics of an array's values (see {@link NumericStats}), read one region at a time,
 * so memory stays at one region whatever the array's size: a first pass for the count,
 * extremes, NaNs and mean, a second for the histogram of the finite values. Chunks never
 * written read as the fill value, as everywhere.
 * @throws StatsUnsupportedError for data types other than integers, floats and booleans;
 *   the read errors of the array
 */
export async function arrayStats(
  array: ZarrArray,
  options: ArrayStatsOptions = {},
): Promise<NumericStats> {
  const kind = statsKindOf(array);
  const { signal, regionBytes = 64 * 2 ** 20 } = options;
  const read = async function* () {
    for (const region of readRegions(array, regionBytes))
      yield (await array.get(region, { signal })).data as unknown as NumericData;
  };
  const accumulator = new StatsAccumulator(kind);
  for await (const data of read()) accumulator.add(data);
  const histogram = accumulator.histogram(options.bins ?? DEFAULT_BINS);
  if (histogram) for await (const data of read()) addToHistogram(histogram, data);
  return accumulator.result(histogram);
}

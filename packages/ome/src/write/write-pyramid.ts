import { type ArrayOptions, createArray, createGroup, ZarrArray, ZarrGroup } from "@z/array";
import { slice } from "@z/indexing";
import type { TypedArray } from "@z/ndarray";
import { joinKey, type StoreLike, throwIfAborted } from "@z/store-core";
import { axisRoles } from "../axis-roles.js";
import { OmeOptionError } from "../errors.js";
import type { Axis, OmeWriteVersion } from "../metadata/model.js";
import { parseOmeMetadata } from "../metadata/parse-ome.js";
import type { MultiscaleImage } from "../multiscale-image.js";
import { openMultiscale } from "../open-multiscale.js";
import { type Box, chunkBoxes, chunkCount, forEachBounded } from "./chunk-boxes.js";
import { type DownsampleMethod, downsampleBlock } from "./downsample.js";
import { completeOmero, type OmeroInput } from "./omero-defaults.js";
import { pyramidAttributes } from "./pyramid-metadata.js";
import { defaultAxes, levelShapes, pyramidLevels } from "./pyramid-plan.js";
import {
  arrayRegionSource,
  type PyramidSource,
  type RegionSource,
  regionSource,
} from "./region-source.js";

/** Where a pyramid is written: a group (its attributes are replaced), a store or a location. */
export type PyramidDestination = ZarrGroup | StoreLike | string;

/** Progress of {@link writePyramid}: chunks written of the level being written. */
export interface PyramidProgress {
  /** The level being written (0 is the copy of the source). */
  level: number;
  /** Its chunks written so far. */
  done: number;
  /** Its chunks. */
  total: number;
}

/** Options of {@link writePyramid}. */
export interface PyramidOptions {
  /**
   * How many levels, the source's copy included. Default: until the coarsest level's x and y
   * each fit in one chunk.
   */
  levels?: number;
  /** How each level comes from the one before (see {@link downsampleBlock}). Default `"mean"`. */
  downsample?: DownsampleMethod;
  /** By how much each level shrinks along the downsampled axes. Default 2. */
  factor?: number;
  /** The names of the axes that shrink. Default: x and y (z keeps its size, as in ome-zarr-py). */
  downsampleAxes?: readonly string[];
  /**
   * The chunk shape of every level. Default: the source's chunks for an array; for values,
   * 256 along x and y (less where the axis is shorter) and 1 along the others.
   */
  chunks?: readonly number[];
  /** `"0.4"` (Zarr v2 arrays, `/` keys) or `"0.5"` (Zarr v3, `dimension_names`). Default `"0.4"`. */
  version?: OmeWriteVersion;
  /**
   * The axes, in the source's dimension order: objects, or names (`"t"`, `"c"`, `"z"`, `"y"`,
   * `"x"` get their types). Default: the last dimensions of `t, c, z, y, x`.
   */
  axes?: readonly (Axis | string)[];
  /** The physical size of a level-0 pixel along each axis. Default: all ones. */
  scale?: readonly number[];
  /** The physical position of the first level-0 pixel along each axis. Default: all zeros. */
  translation?: readonly number[];
  /** The image's name (`multiscales[0].name`). */
  name?: string;
  /**
   * Write `omero` rendering settings: the channels' settings given, completed (see
   * {@link completeOmero}); `true` for all defaults.
   */
  omero?: OmeroInput | true;
  /** The group's path in the store (ignored for a group). Default the root. */
  path?: string;
  /** Replace what is at the path (default: refuse, with `ContainsGroupError` or `ContainsArrayError`). */
  overwrite?: boolean;
  /**
   * Further options of the level arrays (compressors, fill value...), as `createArray` takes
   * them.
   */
  arrayOptions?: Omit<ArrayOptions, "shape" | "dtype" | "chunks" | "zarrFormat" | "dimensionNames">;
  /** How many chunks are read, reduced and written at once (default 4): it bounds the memory. */
  concurrency?: number;
  /** Called after each chunk written. */
  onProgress?: (progress: PyramidProgress) => void;
  /** Abort the writing: it rejects with the `AbortError`, and no further chunk is written. */
  signal?: AbortSignal;
}

const MEAN_DTYPES = new Set([
  "int8",
  "uint8",
  "int16",
  "uint16",
  "int32",
  "uint32",
  "float32",
  "float64",
]);

function check(condition: boolean, option: string, problem: string): void {
  if (!condition) throw new OmeOptionError(option, problem);
}

function positiveInteger(value: number, option: string): number {
  check(
    Number.isSafeInteger(value) && value >= 1,
    option,
    `must be a positive integer, found ${value}`,
  );
  return value;
}

async function destinationGroup(
  dest: PyramidDestination,
  options: PyramidOptions,
  zarrFormat: 2 | 3,
): Promise<ZarrGroup> {
  if (dest instanceof ZarrGroup) {
    check(
      dest.zarrFormat === zarrFormat,
      "version",
      `OME-Zarr ${options.version ?? "0.4"} needs a Zarr v${zarrFormat} group, the group "/${dest.path}" is v${dest.zarrFormat}`,
    );
    return dest;
  }
  return createGroup(dest as StoreLike, {
    path: options.path,
    zarrFormat,
    overwrite: options.overwrite,
    signal: options.signal,
  });
}

/**
 * Writes a multiscale pyramid: level 0 is a copy of the source, and each further level is
 * computed from the level before it, chunk by chunk, reading back only the block of the finer
 * level that one output chunk covers. At most `concurrency` chunks are in hand at once, so
 * memory stays bounded however large the image (an array source is read chunk by chunk too).
 * Then the group's attributes get the multiscales metadata: the axes, one dataset per level
 * with its scale (and, for `"mean"`, the translation that centres each block's pixel on the
 * pixels it averages), and `omero` when asked. The levels are the arrays `"0"`, `"1"`, ... of
 * the group.
 *
 * @example
 * ```ts
 * const image = await writePyramid({ data, shape: [3, 4096, 4096] }, store, {
 *   levels: 5,
 *   downsample: "mean",
 *   version: "0.5",
 *   axes: ["c", "y", "x"],
 *   scale: [1, 0.325, 0.325],
 *   omero: { channels: [{ label: "DAPI", color: "0000FF" }] },
 * });
 * console.log(image.levels.map((l) => l.shape));
 * ```
 * @returns the written image, opened
 * @throws OmeOptionError for options that do not fit the source; ContainsGroupError or
 *   ContainsArrayError when something is at the path (without `overwrite`); AbortError
 * @category OME-Zarr
 */
export async function writePyramid(
  source: PyramidSource,
  dest: PyramidDestination,
  options: PyramidOptions = {},
): Promise<MultiscaleImage> {
  const { signal } = options;
  throwIfAborted(signal);
  const input = regionSource(source);
  const nd = input.shape.length;
  const version = options.version ?? "0.4";
  check(
    version === "0.4" || version === "0.5",
    "version",
    `must be "0.4" or "0.5", found ${JSON.stringify(version)}`,
  );
  const downsample = options.downsample ?? "mean";
  check(
    downsample === "mean" || downsample === "nearest",
    "downsample",
    `must be "mean" or "nearest", found ${JSON.stringify(downsample)}`,
  );
  check(
    downsample === "nearest" || MEAN_DTYPES.has(input.dtype),
    "downsample",
    `"mean" needs a data type of at most 32-bit integers or floats, the source is ${input.dtype} (use "nearest")`,
  );
  const axes = defaultAxes(options.axes, nd);
  const roles = axisRoles(axes);
  const factor = positiveInteger(options.factor ?? 2, "factor");
  check(factor >= 2, "factor", `must be at least 2, found ${factor}`);
  const shrinking = options.downsampleAxes ?? [axes[roles.y].name, axes[roles.x].name];
  const factors = axes.map((a) => (shrinking.includes(a.name) ? factor : 1));
  for (const name of shrinking)
    check(
      axes.some((a) => a.name === name),
      "downsampleAxes",
      `names no axis "${name}"`,
    );
  const chunks =
    options.chunks !== undefined
      ? [...options.chunks]
      : source instanceof ZarrArray
        ? source.chunks
        : input.shape.map((n, d) =>
            d === roles.x || d === roles.y ? Math.max(1, Math.min(n, 256)) : 1,
          );
  check(
    chunks.length === nd,
    "chunks",
    `must have ${nd} entries (the dimensions), found ${chunks.length}`,
  );
  for (const [d, c] of chunks.entries()) positiveInteger(c, `chunks[${d}]`);
  const levels =
    options.levels === undefined
      ? pyramidLevels(input.shape, chunks, factors, [roles.y, roles.x])
      : positiveInteger(options.levels, "levels");
  const scale0 = vector(options.scale, nd, 1, "scale");
  for (const [d, s] of scale0.entries())
    check(s > 0 && Number.isFinite(s), `scale[${d}]`, `must be positive, found ${s}`);
  const translation0 = vector(options.translation, nd, 0, "translation");
  const shapes = levelShapes(input.shape, factors, levels);
  const scales = shapes.map((_, k) => scale0.map((s, d) => s * factors[d] ** k));
  // A mean's pixel sits at the centre of the block it averages; a nearest pixel at its first.
  const translations = shapes.map((_, k) => {
    const t = translation0.map((t0, d) =>
      downsample === "mean" ? t0 + (scale0[d] * (factors[d] ** k - 1)) / 2 : t0,
    );
    return t.every((x) => x === 0) ? undefined : t;
  });
  const paths = shapes.map((_, k) => String(k));
  const omeroInput = options.omero === true ? {} : options.omero;
  if (omeroInput?.channels !== undefined) {
    const count = roles.c < 0 ? 1 : input.shape[roles.c];
    check(
      omeroInput.channels.length <= count,
      "omero.channels",
      `gives ${omeroInput.channels.length} channels, the image has ${count}`,
    );
  }
  const description = {
    version,
    name: options.name,
    axes,
    paths,
    scales,
    translations,
    downsample,
  };
  // The metadata is checked before anything is written, with the parser the readers use.
  parseOmeMetadata(pyramidAttributes(description));

  const zarrFormat = version === "0.4" ? 2 : 3;
  const group = await destinationGroup(dest, options, zarrFormat);
  const concurrency = positiveInteger(options.concurrency ?? 4, "concurrency");
  const arrays: ZarrArray[] = [];
  for (const [k, shape] of shapes.entries()) {
    const arrayOptions: ArrayOptions = {
      ...options.arrayOptions,
      shape,
      dtype: input.dtype,
      chunks: chunks.map((c, d) => Math.min(c, Math.max(1, shape[d]))),
      zarrFormat,
    };
    if (zarrFormat === 2) arrayOptions.dimensionSeparator = "/";
    else arrayOptions.dimensionNames = axes.map((a) => a.name);
    const array = await createArray(group.store as StoreLike, {
      ...arrayOptions,
      path: joinKey(group.path, paths[k]),
      overwrite: options.overwrite,
      signal,
    });
    arrays.push(array);
    const from: RegionSource = k === 0 ? input : arrayRegionSource(arrays[k - 1]);
    const round = !input.dtype.startsWith("float");
    const total = chunkCount(shape, array.chunks);
    let done = 0;
    await forEachBounded(chunkBoxes(shape, array.chunks), concurrency, async (box) => {
      throwIfAborted(signal);
      const block =
        k === 0
          ? await from.read(box, signal)
          : await reduceBox(from, box, factors, downsample, round, array, signal);
      await array.set(
        box.map(([a, b]) => slice(a, b)),
        block,
        { signal },
      );
      options.onProgress?.({ level: k, done: ++done, total });
    });
  }
  const attributes = pyramidAttributes({
    ...description,
    ...(omeroInput === undefined
      ? {}
      : { omero: await completeOmero(omeroInput, arrays[arrays.length - 1], roles.c, signal) }),
  });
  await group.updateAttributes(attributes, { replace: true, signal });
  return openMultiscale(group, { signal });
}

function vector(
  value: readonly number[] | undefined,
  nd: number,
  fill: number,
  option: string,
): number[] {
  if (value === undefined) return new Array<number>(nd).fill(fill);
  check(
    value.length === nd,
    option,
    `must have ${nd} entries (the dimensions), found ${value.length}`,
  );
  return [...value];
}

/** One chunk of a coarser level: the block of the finer level it covers, reduced. */
async function reduceBox(
  finer: RegionSource,
  box: Box,
  factors: readonly number[],
  method: DownsampleMethod,
  round: boolean,
  target: ZarrArray,
  signal?: AbortSignal,
): Promise<{ data: TypedArray; shape: number[] }> {
  const inBox: Box = box.map(([a, b], d) => [
    a * factors[d],
    Math.min(finer.shape[d], b * factors[d]),
  ]);
  const block = await finer.read(inBox, signal);
  const out = target.dataType.create(box.reduce((n, [a, b]) => n * (b - a), 1)) as TypedArray;
  const shape = downsampleBlock(
    { data: block.data as unknown as number[], shape: block.shape },
    factors,
    method,
    round,
    out as unknown as number[],
  );
  return { data: out, shape };
}

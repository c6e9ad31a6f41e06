import { type ArrayOptions, createArray, createGroup, type ZarrArray, ZarrGroup } from "@z/array";
import { slice } from "@z/indexing";
import type { TypedArray } from "@z/ndarray";
import { joinKey, type StoreLike, throwIfAborted } from "@z/store-core";
import { OmeOptionError } from "../errors.js";
import { parseOmeMetadata } from "../metadata/parse-ome.js";
import type { MultiscaleImage } from "../multiscale-image.js";
import { openMultiscale } from "../open-multiscale.js";
import { type Box, chunkBoxes, chunkCount, forEachBounded } from "./chunk-boxes.js";
import { type DownsampleMethod, downsampleBlock } from "./downsample.js";
import { completeOmero } from "./omero-defaults.js";
import { pyramidAttributes } from "./pyramid-metadata.js";
import type { PyramidOptions } from "./pyramid-options.js";
import { type PyramidPlan, planPyramid } from "./pyramid-plan.js";
import {
  arrayRegionSource,
  type PyramidSource,
  type RegionSource,
  regionSource,
} from "./region-source.js";

/** Where a pyramid is written: a group (its attributes are replaced), a store or a location. */
export type PyramidDestination = ZarrGroup | StoreLike | string;

async function destinationGroup(
  dest: PyramidDestination,
  options: PyramidOptions,
  zarrFormat: 2 | 3,
): Promise<ZarrGroup> {
  if (dest instanceof ZarrGroup) {
    if (dest.zarrFormat !== zarrFormat)
      throw new OmeOptionError(
        "version",
        `OME-Zarr ${options.version ?? "0.4"} needs a Zarr v${zarrFormat} group, the group "/${dest.path}" is v${dest.zarrFormat}`,
      );
    return dest;
  }
  return createGroup(dest, {
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
  const plan = planPyramid(source, input, options);
  // The metadata is checked before anything is written, with the parser the readers use.
  parseOmeMetadata(pyramidAttributes(plan.description));
  const zarrFormat = plan.version === "0.4" ? 2 : 3;
  const group = await destinationGroup(dest, options, zarrFormat);
  const arrays: ZarrArray[] = [];
  for (const k of plan.shapes.keys()) {
    const array = await createLevel(group, plan, k, input.dtype, options);
    await fillLevel(array, k === 0 ? input : arrayRegionSource(arrays[k - 1]), k, plan, options);
    arrays.push(array);
  }
  const omero =
    plan.omero &&
    (await completeOmero(plan.omero, arrays[arrays.length - 1], plan.roles.c, signal));
  const attributes = pyramidAttributes({ ...plan.description, ...(omero ? { omero } : {}) });
  await group.updateAttributes(attributes, { replace: true, signal });
  return openMultiscale(group, { signal });
}

/** Creates level `k`'s array: v2 with `/` keys for 0.4, v3 with dimension names for 0.5. */
async function createLevel(
  group: ZarrGroup,
  plan: PyramidPlan,
  k: number,
  dtype: string,
  options: PyramidOptions,
): Promise<ZarrArray> {
  const shape = plan.shapes[k];
  const zarrFormat = plan.version === "0.4" ? 2 : 3;
  const arrayOptions: ArrayOptions = {
    ...options.arrayOptions,
    shape,
    dtype,
    chunks: plan.chunks.map((c, d) => Math.min(c, Math.max(1, shape[d]))),
    zarrFormat,
  };
  if (zarrFormat === 2) arrayOptions.dimensionSeparator = "/";
  else arrayOptions.dimensionNames = plan.description.axes.map((a) => a.name);
  return createArray(group.store as StoreLike, {
    ...arrayOptions,
    path: joinKey(group.path, plan.description.paths[k]),
    overwrite: options.overwrite,
    signal: options.signal,
  });
}

/**
 * Writes every chunk of level `k`: a copy of the source's box for level 0, else the reduction
 * of the finer level's block; `plan.concurrency` chunks at a time.
 */
async function fillLevel(
  array: ZarrArray,
  from: RegionSource,
  k: number,
  plan: PyramidPlan,
  options: PyramidOptions,
): Promise<void> {
  const { signal } = options;
  const round = !array.dtype.startsWith("float");
  const total = chunkCount(array.shape, array.chunks);
  let done = 0;
  await forEachBounded(chunkBoxes(array.shape, array.chunks), plan.concurrency, async (box) => {
    throwIfAborted(signal);
    const block =
      k === 0
        ? await from.read(box, signal)
        : await reduceBox(from, box, plan.factors, plan.downsample, round, array, signal);
    await array.set(
      box.map(([a, b]) => slice(a, b)),
      block,
      { signal },
    );
    options.onProgress?.({ level: k, done: ++done, total });
  });
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

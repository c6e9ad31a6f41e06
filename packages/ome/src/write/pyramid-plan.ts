import { ZarrArray } from "@z/array";
import { type AxisRoles, axisRoles } from "../axis-roles.js";
import { OmeOptionError } from "../errors.js";
import type { OmeWriteVersion } from "../metadata/model.js";
import type { DownsampleMethod } from "./downsample.js";
import type { OmeroInput } from "./omero-defaults.js";
import { defaultAxes, levelShapes, pyramidLevels } from "./pyramid-geometry.js";
import type { PyramidDescription } from "./pyramid-metadata.js";
import type { PyramidOptions } from "./pyramid-options.js";
import type { PyramidSource, RegionSource } from "./region-source.js";

/** What a pyramid will be, from its source and options, checked. */
export interface PyramidPlan {
  /** The metadata to write (omero aside). */
  description: PyramidDescription;
  /** The version to write. */
  version: OmeWriteVersion;
  /** How levels are reduced. */
  downsample: DownsampleMethod;
  /** The parts the axes play. */
  roles: AxisRoles;
  /** Per axis, by how much each level shrinks. */
  factors: number[];
  /** The chunk shape of the levels. */
  chunks: number[];
  /** The shape of each level. */
  shapes: number[][];
  /** The channel settings to complete and write, if any. */
  omero?: OmeroInput;
  /** Chunks in hand at once. */
  concurrency: number;
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

/**
 * Checks the options of `writePyramid` against its source and works out the levels: their
 * shapes, scales and translations, the chunks, the axes.
 * @throws OmeOptionError naming the option that does not fit
 */
export function planPyramid(
  source: PyramidSource,
  input: RegionSource,
  options: PyramidOptions,
): PyramidPlan {
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
  const description: PyramidDescription = {
    version,
    name: options.name,
    axes,
    paths,
    scales,
    translations,
    downsample,
  };
  return {
    description,
    version,
    downsample,
    roles,
    factors,
    chunks,
    shapes,
    ...(omeroInput === undefined ? {} : { omero: omeroInput }),
    concurrency: positiveInteger(options.concurrency ?? 4, "concurrency"),
  };
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

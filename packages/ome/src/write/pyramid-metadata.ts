import type { JsonObject } from "@z/metadata";
import type { Axis, Omero, OmeWriteVersion } from "../metadata/model.js";
import type { DownsampleMethod } from "./downsample.js";

/** What the group's OME metadata says of a written pyramid. */
export interface PyramidDescription {
  /** The version to write. */
  version: OmeWriteVersion;
  /** The image's name, if any. */
  name?: string;
  /** The axes. */
  axes: Axis[];
  /** The level paths, finest first. */
  paths: string[];
  /** Per level, the pixel size along each axis. */
  scales: number[][];
  /** Per level, the position of the first pixel, or undefined where all zeros. */
  translations: (number[] | undefined)[];
  /** The method, written as the multiscale's `type`. */
  downsample: DownsampleMethod;
  /** The rendering settings, if any. */
  omero?: Omero;
}

function omeroJson(omero: Omero): JsonObject {
  return JSON.parse(JSON.stringify(omero)) as JsonObject;
}

/**
 * The group attributes of a pyramid: 0.4's `multiscales` (with `version`) and `omero` at the
 * top, or 0.5's `ome` object holding them and its `version`.
 */
export function pyramidAttributes(p: PyramidDescription): JsonObject {
  const datasets = p.paths.map((path, k): JsonObject => {
    const transforms: JsonObject[] = [{ type: "scale", scale: p.scales[k] }];
    const translation = p.translations[k];
    if (translation) transforms.push({ type: "translation", translation });
    return { path, coordinateTransformations: transforms };
  });
  const axes = p.axes.map((a): JsonObject => ({ ...a }));
  const multiscale: JsonObject = {
    ...(p.version === "0.4" ? { version: "0.4" } : {}),
    ...(p.name === undefined ? {} : { name: p.name }),
    axes,
    datasets,
    type: p.downsample,
    metadata: {
      description: `each level from the one before, by the ${p.downsample} of blocks`,
      method: "@z/ome writePyramid",
    },
  };
  const body: JsonObject = { multiscales: [multiscale] };
  if (p.omero) body.omero = omeroJson(p.omero);
  return p.version === "0.4" ? body : { ome: { version: "0.5", ...body } };
}

import type { JsonObject, JsonValue } from "@z/metadata";
import {
  type FieldContext,
  fail,
  field,
  listAt,
  objectAt,
  optionalField,
  stringAt,
} from "./json-fields.js";
import type {
  CoordinateTransformation,
  Multiscale,
  MultiscaleDataset,
  OmeVersion,
} from "./model.js";
import { parseAxes } from "./parse-axes.js";
import { composeTransforms, parseTransforms, resolveTransforms } from "./parse-transforms.js";
import { checkVersion } from "./versions.js";

/** Whether the version states transformations per dataset (0.4 on). */
function hasTransforms(version: OmeVersion): boolean {
  return version === "0.4" || version === "0.5";
}

function parseDataset(
  context: FieldContext,
  value: JsonValue,
  where: string,
  version: OmeVersion,
  axes: number,
): Omit<MultiscaleDataset, "scale" | "translation"> {
  const object = objectAt(context, value, where);
  const path = stringAt(context, object.path, field(where, "path"));
  if (path === "" || path.startsWith("/") || path.split("/").some((s) => s === "" || s === ".."))
    fail(context, field(where, "path"), `must be a relative path below the image, found "${path}"`);
  const at = field(where, "coordinateTransformations");
  const transforms = object.coordinateTransformations;
  if (transforms === undefined && hasTransforms(version))
    fail(context, at, `is required in version ${version}`);
  return {
    path,
    coordinateTransformations:
      transforms === undefined ? [] : parseTransforms(context, transforms, at, axes),
  };
}

/**
 * Reads one entry of `multiscales`: its axes, its datasets with their transformations composed
 * with the multiscale's own, its name and type. `version` is the one that applies (0.5's
 * `ome.version`; before 0.5 each multiscale's own).
 */
export function parseMultiscale(
  context: FieldContext,
  value: JsonValue,
  where: string,
  version: OmeVersion,
): Multiscale {
  const object = objectAt(context, value, where);
  const axes = parseAxes(context, object.axes, field(where, "axes"), version);
  const datasetsAt = field(where, "datasets");
  const list = listAt(context, object.datasets, datasetsAt);
  if (list.length === 0) fail(context, datasetsAt, "must list at least one dataset");
  const outerAt = field(where, "coordinateTransformations");
  const outerList: CoordinateTransformation[] =
    object.coordinateTransformations === undefined || object.coordinateTransformations === null
      ? []
      : parseTransforms(context, object.coordinateTransformations, outerAt, axes.length);
  const outer = resolveTransforms(outerList, axes.length);
  const paths = new Set<string>();
  const datasets = list.map((entry, i): MultiscaleDataset => {
    const at = field(datasetsAt, i);
    const dataset = parseDataset(context, entry, at, version, axes.length);
    if (paths.has(dataset.path))
      fail(context, field(at, "path"), `repeats the path "${dataset.path}"`);
    paths.add(dataset.path);
    const own = resolveTransforms(dataset.coordinateTransformations, axes.length);
    return { ...dataset, ...composeTransforms(own, outer) };
  });
  const str = (v: JsonValue, w: string) => stringAt(context, v, w);
  const multiscale: Multiscale = { version, axes, datasets, coordinateTransformations: outerList };
  const name = optionalField(object, "name", where, str);
  const type = optionalField(object, "type", where, str);
  const metadata = optionalField(object, "metadata", where, (v, w) => objectAt(context, v, w));
  if (name !== undefined) multiscale.name = name;
  if (type !== undefined) multiscale.type = type;
  if (metadata !== undefined) multiscale.metadata = metadata;
  return multiscale;
}

/**
 * The version of a multiscale written before 0.5: its `version`, or, where it states none, the
 * one its axes imply (none: 0.2; names: 0.3; objects: 0.4).
 */
export function versionOfMultiscale(
  context: FieldContext,
  value: JsonObject,
  where: string,
): OmeVersion {
  if (value.version !== undefined && value.version !== null) {
    const at = field(where, "version");
    const version = checkVersion(context, stringAt(context, value.version, at), at);
    if (version === "0.5")
      fail(context, at, `version 0.5 keeps its metadata under "ome" in zarr.json, not here`);
    return version;
  }
  const axes = value.axes;
  if (axes === undefined || axes === null) return "0.2";
  if (Array.isArray(axes) && axes.every((a) => typeof a === "string")) return "0.3";
  return "0.4";
}

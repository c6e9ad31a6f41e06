import type { JsonValue } from "@z/metadata";
import {
  type FieldContext,
  fail,
  field,
  listAt,
  numberAt,
  objectAt,
  stringAt,
} from "./json-fields.js";
import type { CoordinateTransformation } from "./model.js";

/** What a list of transformations amounts to: a scale, then a translation. */
export interface ScaleAndTranslation {
  /** Per axis. */
  scale: number[];
  /** Per axis. */
  translation: number[];
}

function vectorAt(
  context: FieldContext,
  value: JsonValue | undefined,
  where: string,
  name: string,
  axes: number,
): number[] {
  if (value === undefined)
    fail(
      context,
      where,
      `a ${name} must give "${name}" (a path to binary values is not supported)`,
    );
  const list = listAt(context, value, field(where, name));
  if (list.length !== axes)
    fail(context, where, `${name} must have ${axes} entries (the axes), found ${list.length}`);
  return list.map((v, i) => numberAt(context, v, field(field(where, name), i)));
}

/**
 * Reads a `coordinateTransformations` list as 0.4 and 0.5 define it: exactly one scale first,
 * then at most one translation, each with one entry per axis. Scale entries must
 * be positive: a pixel has a size.
 */
export function parseTransforms(
  context: FieldContext,
  value: JsonValue,
  where: string,
  axes: number,
): CoordinateTransformation[] {
  const list = listAt(context, value, where);
  const out: CoordinateTransformation[] = [];
  for (const [i, entry] of list.entries()) {
    const at = field(where, i);
    const object = objectAt(context, entry, at);
    const type = stringAt(context, object.type, field(at, "type"));
    if (type === "scale") {
      if (i !== 0) fail(context, at, "the scale must come first, and only once");
      const scale = vectorAt(context, object.scale, where, "scale", axes);
      const bad = scale.findIndex((s) => !(s > 0));
      if (bad >= 0)
        fail(context, field(field(at, "scale"), bad), `must be positive, found ${scale[bad]}`);
      out.push({ type, scale });
    } else if (type === "translation") {
      if (i !== 1 || out[0]?.type !== "scale")
        fail(context, at, "a translation must follow the scale, and come only once");
      out.push({
        type,
        translation: vectorAt(context, object.translation, where, "translation", axes),
      });
    } else {
      fail(context, field(at, "type"), `must be "scale" or "translation", found "${type}"`);
    }
  }
  if (out.length === 0) fail(context, where, "must hold a scale, found no transformation");
  return out;
}

/** The scale and translation a list of transformations amounts to (identity when empty, as before 0.4). */
export function resolveTransforms(
  list: readonly CoordinateTransformation[],
  axes: number,
): ScaleAndTranslation {
  let scale = new Array<number>(axes).fill(1);
  let translation = new Array<number>(axes).fill(0);
  for (const t of list) {
    if (t.type === "scale") scale = [...t.scale];
    else if (t.type === "translation") translation = [...t.translation];
  }
  return { scale, translation };
}

/**
 * Applies `outer` after `inner`: a point `p` of the level maps to `outer(inner(p))`, so the
 * composite scales by `outer.scale * inner.scale` and moves by
 * `outer.scale * inner.translation + outer.translation`.
 */
export function composeTransforms(
  inner: ScaleAndTranslation,
  outer: ScaleAndTranslation,
): ScaleAndTranslation {
  return {
    scale: inner.scale.map((s, i) => s * outer.scale[i]),
    translation: inner.translation.map((t, i) => t * outer.scale[i] + outer.translation[i]),
  };
}

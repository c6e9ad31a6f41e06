import type { JsonValue } from "@z/metadata";
import {
  type FieldContext,
  fail,
  field,
  listAt,
  objectAt,
  optionalField,
  stringAt,
} from "./json-fields.js";
import type { Axis, OmeVersion } from "./model.js";

/** The axes 0.1 and 0.2 imply: five dimensions, `t, c, z, y, x`. */
const IMPLIED_AXES: Axis[] = [
  { name: "t", type: "time" },
  { name: "c", type: "channel" },
  { name: "z", type: "space" },
  { name: "y", type: "space" },
  { name: "x", type: "space" },
];

/** The type 0.3's bare axis names stand for. */
function typeOfName(name: string): string | undefined {
  if (name === "x" || name === "y" || name === "z") return "space";
  if (name === "c") return "channel";
  if (name === "t") return "time";
  return undefined;
}

/**
 * Reads `axes` as the version defines them: objects from 0.4 on, names in 0.3, implied before.
 * Checks what the specification requires of them: 2 to 5 axes with unique names, 2 or 3 of
 * type space, at most one of type time and one of type channel.
 */
export function parseAxes(
  context: FieldContext,
  value: JsonValue | undefined,
  where: string,
  version: OmeVersion,
): Axis[] {
  if (value === undefined && (version === "0.1" || version === "0.2"))
    return IMPLIED_AXES.map((a) => ({ ...a }));
  if (value === undefined) fail(context, where, `is required in version ${version}`);
  const list = listAt(context, value, where);
  const axes = list.map((entry, i): Axis => {
    const at = field(where, i);
    if (version === "0.3") {
      const name = stringAt(context, entry, at);
      const type = typeOfName(name);
      return type === undefined ? { name } : { name, type };
    }
    const object = objectAt(context, entry, at);
    const name = stringAt(context, object.name, field(at, "name"));
    const type = optionalField(object, "type", at, (v, w) => stringAt(context, v, w));
    const unit = optionalField(object, "unit", at, (v, w) => stringAt(context, v, w));
    return {
      name,
      ...(type === undefined ? {} : { type }),
      ...(unit === undefined ? {} : { unit }),
    };
  });
  checkAxes(context, axes, where);
  return axes;
}

function checkAxes(context: FieldContext, axes: Axis[], where: string): void {
  if (axes.length < 2 || axes.length > 5)
    fail(context, where, `must have 2 to 5 axes, found ${axes.length}`);
  const seen = new Set<string>();
  for (const [i, axis] of axes.entries()) {
    if (axis.name === "") fail(context, field(field(where, i), "name"), "must not be empty");
    if (seen.has(axis.name))
      fail(context, field(field(where, i), "name"), `repeats the axis name "${axis.name}"`);
    seen.add(axis.name);
  }
  const count = (type: string) => axes.filter((a) => a.type === type).length;
  const space = count("space");
  if (space < 2 || space > 3)
    fail(context, where, `must have 2 or 3 axes of type "space", found ${space}`);
  if (count("time") > 1)
    fail(context, where, `may have one axis of type "time", found ${count("time")}`);
  if (count("channel") > 1)
    fail(context, where, `may have one axis of type "channel", found ${count("channel")}`);
}

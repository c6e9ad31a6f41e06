import type { JsonValue } from "@z/metadata";
import {
  booleanAt,
  type FieldContext,
  fail,
  field,
  listAt,
  numberAt,
  objectAt,
  optionalField,
  stringAt,
} from "./json-fields.js";
import type { Omero, OmeroChannel, OmeroWindow } from "./model.js";

const HEX_COLOR = /^[0-9a-fA-F]{6}$/;

function parseWindow(context: FieldContext, value: JsonValue, where: string): OmeroWindow {
  const object = objectAt(context, value, where);
  const num = (v: JsonValue, w: string) => numberAt(context, v, w);
  const start = numberAt(context, object.start, field(where, "start"));
  const end = numberAt(context, object.end, field(where, "end"));
  const min = optionalField(object, "min", where, num);
  const max = optionalField(object, "max", where, num);
  return {
    start,
    end,
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
  };
}

function parseChannel(context: FieldContext, value: JsonValue, where: string): OmeroChannel {
  const object = objectAt(context, value, where);
  const str = (v: JsonValue, w: string) => stringAt(context, v, w);
  const bool = (v: JsonValue, w: string) => booleanAt(context, v, w);
  const color = optionalField(object, "color", where, str);
  if (color !== undefined && !HEX_COLOR.test(color))
    fail(context, field(where, "color"), `must be six hexadecimal digits, found "${color}"`);
  const channel: OmeroChannel = {};
  const label = optionalField(object, "label", where, str);
  const window = optionalField(object, "window", where, (v, w) => parseWindow(context, v, w));
  const active = optionalField(object, "active", where, bool);
  const coefficient = optionalField(object, "coefficient", where, (v, w) =>
    numberAt(context, v, w),
  );
  const family = optionalField(object, "family", where, str);
  const inverted = optionalField(object, "inverted", where, bool);
  if (label !== undefined) channel.label = label;
  if (color !== undefined) channel.color = color.toUpperCase();
  if (window !== undefined) channel.window = window;
  if (active !== undefined) channel.active = active;
  if (coefficient !== undefined) channel.coefficient = coefficient;
  if (family !== undefined) channel.family = family;
  if (inverted !== undefined) channel.inverted = inverted;
  return channel;
}

/** Reads `omero`: its channels (colour, window, label, active...) and default rendering. */
export function parseOmero(context: FieldContext, value: JsonValue, where: string): Omero {
  const object = objectAt(context, value, where);
  const channelsAt = field(where, "channels");
  const channels = listAt(context, object.channels ?? [], channelsAt).map((c, i) =>
    parseChannel(context, c, field(channelsAt, i)),
  );
  const omero: Omero = { channels };
  const rdefs = optionalField(object, "rdefs", where, (v, w) => {
    const r = objectAt(context, v, w);
    const int = (x: JsonValue, at: string) => numberAt(context, x, at);
    const defaultT = optionalField(r, "defaultT", w, int);
    const defaultZ = optionalField(r, "defaultZ", w, int);
    const model = optionalField(r, "model", w, (x, at) => stringAt(context, x, at));
    return {
      ...(defaultT === undefined ? {} : { defaultT }),
      ...(defaultZ === undefined ? {} : { defaultZ }),
      ...(model === undefined ? {} : { model }),
    };
  });
  if (rdefs !== undefined) omero.rdefs = rdefs;
  const name = optionalField(object, "name", where, (v, w) => stringAt(context, v, w));
  if (name !== undefined) omero.name = name;
  const id = optionalField(object, "id", where, (v, w) => numberAt(context, v, w));
  if (id !== undefined) omero.id = id;
  return omero;
}

import type { JsonValue } from "@z/metadata";
import {
  type FieldContext,
  fail,
  field,
  listAt,
  numberAt,
  objectAt,
  optionalField,
  stringAt,
} from "./json-fields.js";
import type { ImageLabel, LabelColor } from "./model.js";

/** Reads a `labels` group's `labels`: the names of its label images. */
export function parseLabelNames(context: FieldContext, value: JsonValue, where: string): string[] {
  return listAt(context, value, where).map((v, i) => stringAt(context, v, field(where, i)));
}

function parseColor(context: FieldContext, value: JsonValue, where: string): LabelColor {
  const object = objectAt(context, value, where);
  const labelValue = numberAt(context, object["label-value"], field(where, "label-value"));
  const rgba = optionalField(object, "rgba", where, (v, w) => {
    const list = listAt(context, v, w).map((x, i) => numberAt(context, x, field(w, i)));
    if (list.length !== 4 || list.some((x) => !Number.isInteger(x) || x < 0 || x > 255))
      fail(context, w, `must be 4 integers from 0 to 255, found ${JSON.stringify(list)}`);
    return list as [number, number, number, number];
  });
  return rgba === undefined ? { labelValue } : { labelValue, rgba };
}

/** Reads a label image's `image-label`: the colours of its values and its source image. */
export function parseImageLabel(
  context: FieldContext,
  value: JsonValue,
  where: string,
): ImageLabel {
  const object = objectAt(context, value, where);
  const colorsAt = field(where, "colors");
  const colors = listAt(context, object.colors ?? [], colorsAt).map((c, i) =>
    parseColor(context, c, field(colorsAt, i)),
  );
  const source = optionalField(object, "source", where, (v, w) => {
    const s = objectAt(context, v, w);
    return optionalField(s, "image", w, (x, at) => stringAt(context, x, at));
  });
  return source === undefined ? { colors } : { colors, source };
}

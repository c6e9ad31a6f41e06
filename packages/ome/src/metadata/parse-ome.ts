import type { JsonObject } from "@z/metadata";
import {
  type FieldContext,
  fail,
  field,
  listAt,
  objectAt,
  optionalField,
  stringAt,
} from "./json-fields.js";
import type { OmeMetadata, OmeVersion } from "./model.js";
import { parseImageLabel, parseLabelNames } from "./parse-labels.js";
import { parseMultiscale, versionOfMultiscale } from "./parse-multiscales.js";
import { parseOmero } from "./parse-omero.js";
import { checkVersion } from "./versions.js";

/** Options of {@link parseOmeMetadata}. */
export interface ParseOmeOptions {
  /** The group's path, named in the errors' messages. */
  path?: string;
}

/**
 * Reads the OME-Zarr metadata in a group's attributes: 0.5's `ome` object (with its
 * `version`), or the `multiscales`, `omero`, `labels` and `image-label` attributes of 0.1 to
 * 0.4. Checks what the specification requires and resolves each level's scale and
 * translation (the dataset's transformations, then the multiscale's).
 *
 * @example
 * ```ts
 * const meta = parseOmeMetadata(group.attrs);
 * console.log(meta.version, meta.multiscales[0].axes.map((a) => a.name));
 * ```
 * @throws OmeMetadataError naming the field at fault and what is wrong, such as
 *   `multiscales[0].datasets[1].coordinateTransformations: scale must have 3 entries (the axes), found 2`;
 *   also when the attributes hold no OME metadata at all
 * @category OME-Zarr
 */
export function parseOmeMetadata(
  attributes: JsonObject,
  options: ParseOmeOptions = {},
): OmeMetadata {
  const context: FieldContext = { nodePath: options.path };
  const attrs = objectAt(context, attributes, "attributes");
  if (attrs.ome !== undefined) {
    const ome = objectAt(context, attrs.ome, "ome");
    const at = field("ome", "version");
    if (ome.version === undefined) fail(context, at, "is required");
    const version = checkVersion(context, stringAt(context, ome.version, at), at);
    return parseBody(context, ome, "ome", () => version, version);
  }
  const first = Array.isArray(attrs.multiscales) ? attrs.multiscales[0] : undefined;
  const topVersion =
    typeof first === "object" && first !== null && !Array.isArray(first)
      ? versionOfMultiscale(context, first, "multiscales[0]")
      : "0.4";
  return parseBody(
    context,
    attrs,
    "",
    (m, where) => versionOfMultiscale(context, objectAt(context, m, where), where),
    topVersion,
  );
}

function parseBody(
  context: FieldContext,
  body: JsonObject,
  where: string,
  versionOf: (multiscale: JsonObject, where: string) => OmeVersion,
  version: OmeVersion,
): OmeMetadata {
  const known = ["multiscales", "omero", "labels", "image-label"];
  if (!known.some((k) => body[k] !== undefined && body[k] !== null))
    fail(
      context,
      where === "" ? "attributes" : where,
      `hold no OME-Zarr metadata (none of ${known.map((k) => `"${k}"`).join(", ")})`,
    );
  const msAt = field(where, "multiscales");
  const multiscales = (
    optionalField(body, "multiscales", where, (v, w) => listAt(context, v, w)) ?? []
  ).map((m, i) => {
    const at = field(msAt, i);
    return parseMultiscale(context, m, at, versionOf(objectAt(context, m, at), at));
  });
  const metadata: OmeMetadata = { version, multiscales };
  const omero = optionalField(body, "omero", where, (v, w) => parseOmero(context, v, w));
  if (omero !== undefined) metadata.omero = omero;
  const labels = optionalField(body, "labels", where, (v, w) => parseLabelNames(context, v, w));
  if (labels !== undefined) metadata.labels = labels;
  const imageLabel = optionalField(body, "image-label", where, (v, w) =>
    parseImageLabel(context, v, w),
  );
  if (imageLabel !== undefined) metadata.imageLabel = imageLabel;
  return metadata;
}

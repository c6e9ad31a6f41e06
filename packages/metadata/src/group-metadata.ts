import { collectExtraFields } from "./array-metadata.js";
import { MetadataError } from "./errors.js";
import { formatValue } from "./format-value.js";
import type { JsonObject, JsonValue } from "./json.js";
import { requireField, requireObject, validateAttributes } from "./validate.js";

/** Group metadata of either format. */
export interface GroupMetadata {
  /** 2 or 3. */
  zarrFormat: 2 | 3;
  /** User attributes. */
  attributes: JsonObject;
  /** v3 `consolidated_metadata` as written, if any. */
  consolidatedMetadata?: JsonObject | null;
  /** Unknown top-level fields marked `must_understand: false`. */
  extraFields: JsonObject;
}

const V3_GROUP_FIELDS = new Set([
  "zarr_format",
  "node_type",
  "attributes",
  "consolidated_metadata",
]);

/**
 * Parses v3 group metadata (a group's `zarr.json`).
 * @throws MetadataError naming the document and the field
 */
export function parseGroupMetadataV3(json: JsonValue, where = "zarr.json"): GroupMetadata {
  const doc = requireObject(json, where);
  if (requireField(doc, "zarr_format", where) !== 3) {
    throw new MetadataError(
      `${where}: "zarr_format" must be 3, got ${formatValue(doc.zarr_format)}`,
    );
  }
  if (requireField(doc, "node_type", where) !== "group") {
    throw new MetadataError(
      `${where}: "node_type" must be "group", got ${formatValue(doc.node_type)}`,
    );
  }
  const consolidated = doc.consolidated_metadata;
  if (
    consolidated !== undefined &&
    consolidated !== null &&
    (typeof consolidated !== "object" || Array.isArray(consolidated))
  ) {
    throw new MetadataError(`${where}: "consolidated_metadata" must be an object or null`);
  }
  return {
    zarrFormat: 3,
    attributes: validateAttributes(doc.attributes, where),
    consolidatedMetadata: consolidated as JsonObject | null | undefined,
    extraFields: collectExtraFields(doc, V3_GROUP_FIELDS, where),
  };
}

/**
 * Parses v2 group metadata: the `.zgroup` document and, if there is one, `.zattrs`.
 * @throws MetadataError naming the document and the field
 */
export function parseGroupMetadataV2(
  zgroup: JsonValue,
  zattrs?: JsonValue,
  where = ".zgroup",
): GroupMetadata {
  const doc = requireObject(zgroup, where);
  if (requireField(doc, "zarr_format", where) !== 2) {
    throw new MetadataError(
      `${where}: "zarr_format" must be 2, got ${formatValue(doc.zarr_format)}`,
    );
  }
  return {
    zarrFormat: 2,
    attributes: validateAttributes(zattrs ?? undefined, where.replace(/\.zgroup$/, ".zattrs")),
    extraFields: {},
  };
}

/** The v3 `zarr.json` document of group metadata. */
export function groupMetadataToV3Json(meta: GroupMetadata): JsonObject {
  const doc: JsonObject = { zarr_format: 3, node_type: "group", attributes: meta.attributes };
  if (meta.consolidatedMetadata !== undefined)
    doc.consolidated_metadata = meta.consolidatedMetadata;
  return { ...doc, ...meta.extraFields };
}

/** The names of the metadata documents. */
export const METADATA_KEYS = {
  /** v3 node metadata. */
  zarrJson: "zarr.json",
  /** v2 array metadata. */
  zarray: ".zarray",
  /** v2 group metadata. */
  zgroup: ".zgroup",
  /** v2 attributes. */
  zattrs: ".zattrs",
  /** v2 consolidated metadata. */
  zmetadata: ".zmetadata",
} as const;

/**
 * Checks a node name (one path segment) as the spec restricts them: not empty, no `/`, not
 * only dots, not starting with `__` (reserved).
 * @throws MetadataError describing the rule broken
 */
export function validateNodeName(name: string): string {
  if (name === "") throw new MetadataError("A node name must not be empty");
  if (name.includes("/"))
    throw new MetadataError(`Invalid node name ${formatValue(name)}: it must not contain '/'`);
  if (/^\.+$/.test(name))
    throw new MetadataError(
      `Invalid node name ${formatValue(name)}: it must not consist only of dots`,
    );
  if (name.startsWith("__"))
    throw new MetadataError(
      `Invalid node name ${formatValue(name)}: names starting with '__' are reserved`,
    );
  return name;
}

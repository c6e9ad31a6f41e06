import { formatValue } from "@z/errors";
import { collectExtraFields } from "./array-metadata-internal.js";
import { MetadataError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json.js";
import { requireField, requireObject, validateAttributes } from "./validate-internal.js";

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

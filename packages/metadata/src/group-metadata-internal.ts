// Shared inside the @z packages, not public: the v3 writer and name checks, kept out of group-metadata.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
import { MetadataError } from "./errors.js";
import { formatValue } from "./format-value.js";
import type { GroupMetadata } from "./group-metadata.js";
import type { JsonObject } from "./json.js";

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

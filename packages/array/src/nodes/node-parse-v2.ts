// The v2 node documents parsed: metadata-io.ts loads this module when it finds a `.zarray`,
// `.zgroup` or `.zmetadata`, so an app that opens v3 arrays only does not download the v2
// parser (see the first-load budget in packages/zarr/test/bundlers/sizes.test.ts).
import {
  type GroupMetadata,
  type JsonValue,
  METADATA_KEYS,
  MetadataError,
  parseArrayMetadataV2,
  parseGroupMetadataV2,
} from "@z/metadata";
import type { NodeMetadata } from "./node-documents.js";

/**
 * Parses v2 node documents: `.zarray` (an array) or `.zgroup` (a group), with `.zattrs`.
 * @param whereOf names a document (`.zarray`, ...) in error messages
 */
export function parseV2Node(
  zarray: JsonValue | undefined,
  zgroup: JsonValue | undefined,
  zattrs: JsonValue | undefined,
  whereOf: (document: string) => string,
): NodeMetadata {
  if (zarray !== undefined) {
    return {
      kind: "array",
      metadata: parseArrayMetadataV2(zarray, zattrs, whereOf(METADATA_KEYS.zarray)),
    };
  }
  if (zgroup === undefined) throw new MetadataError(`${whereOf(METADATA_KEYS.zgroup)} is missing`);
  return {
    kind: "group",
    metadata: parseGroupMetadataV2(zgroup, zattrs, whereOf(METADATA_KEYS.zgroup)),
  };
}

/** Parses a v2 `.zgroup` with its `.zattrs` (`where` names the document in error messages). */
export function parseV2Group(
  zgroup: JsonValue,
  zattrs: JsonValue | undefined,
  where: string,
): GroupMetadata {
  return parseGroupMetadataV2(zgroup, zattrs, where);
}

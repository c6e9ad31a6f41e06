// The documents of consolidated metadata: private to the @z packages. consolidated-model.ts holds
// the public side, which the package entry re-exports whole.
import type { GroupMetadata } from "@z/metadata";
import { encodeJson, groupMetadataToV3Json, METADATA_KEYS } from "@z/metadata";
import type { ConsolidatedMetadata } from "./consolidated-model.js";

/** The documents (key relative to the group, bytes) a group's consolidated metadata is written as. */
export function consolidatedDocuments(
  metadata: GroupMetadata,
  consolidated: ConsolidatedMetadata,
): [string, Uint8Array][] {
  if (consolidated.zarrFormat === 2)
    return [[METADATA_KEYS.zmetadata, encodeJson(consolidated.toJson(), 4)]];
  const doc = groupMetadataToV3Json({ ...metadata, consolidatedMetadata: consolidated.toJson() });
  return [[METADATA_KEYS.zarrJson, encodeJson(doc, 2)]];
}

// Shared inside the @z packages, not public: the documents of consolidated metadata, kept out of consolidated-model.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
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

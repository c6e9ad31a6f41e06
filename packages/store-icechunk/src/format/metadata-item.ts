import type { FbTable } from "./flatbuffers.js";

/**
 * Snapshot or repository metadata: each name with its encoded value, MessagePack in spec
 * version 1 and FlexBuffers in spec version 2 (kept as bytes).
 */
export type EncodedMetadata = Map<string, Uint8Array>;

/** Reads a `[MetadataItem]` vector. */
export function readMetadataItems(items: FbTable[] | undefined): EncodedMetadata {
  const out: EncodedMetadata = new Map();
  for (const item of items ?? []) {
    out.set(item.requiredString(0, "name"), item.bytes(1, "value") ?? new Uint8Array(0));
  }
  return out;
}

import type { FbTable } from "./flatbuffers.js";
import { decodeFlexbuffer } from "./flexbuffers.js";
import { decodeMsgpack } from "./msgpack.js";

/**
 * Snapshot or repository metadata: each name with its JSON-like value (stored as MessagePack in
 * spec version 1, FlexBuffers in spec version 2). Byte strings come back as `Uint8Array`, and
 * integers beyond 2^53 as BigInt.
 */
export type Metadata = Record<string, unknown>;

/** Reads a `[MetadataItem]` vector, decoding each value as its spec version stores it. */
export function readMetadataItems(items: FbTable[] | undefined, specVersion: 1 | 2): Metadata {
  const out: Metadata = {};
  for (const item of items ?? []) {
    const name = item.requiredString(0, "name");
    const bytes =
      item.bytes(1, "value") ?? item.buf.fail(`metadata item ${JSON.stringify(name)} has no value`);
    const fail = (reason: string): never =>
      item.buf.fail(`metadata item ${JSON.stringify(name)}: ${reason}`);
    const value = specVersion === 1 ? decodeMsgpack(bytes, fail) : decodeFlexbuffer(bytes, fail);
    Object.defineProperty(out, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

import type { StorageTransformerFactory } from "./storage-transformers.js";

// The registered storage transformers, in a file of their own: the public registration
// (storage-transformers.ts) and the chunk store of an array (chunk-store-of.ts) share them, and
// the package entry exports only the first.

/** The registered storage transformer factories by name. */
export const factories = new Map<string, StorageTransformerFactory>();

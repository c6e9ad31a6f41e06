/**
 * Zarr arrays and groups: open and create them (v2 and v3), read and write selections, list
 * hierarchies. Stores come from the @z/store-memory, -fs, -http and -zip packages; a plain `Map`
 * works too.
 * @packageDocumentation
 */

export * from "./any-selection.js";
export * from "./array.js";
export * from "./array-metadata-builder.js";
export * from "./chunk-access.js";
export type { ChunksOption } from "./chunk-grid-option.js";
export * from "./chunk-io.js";
export * from "./chunking.js";
export * from "./codec-specs.js";
export * from "./concurrency.js";
export * from "./consolidate-metadata.js";
export * from "./consolidated-model.js";
export * from "./container-types.js";
export * from "./copy-elements.js";
export * from "./copy-node.js";
export * from "./create-nodes.js";
export * from "./data-type-check.js";
export * from "./errors.js";
export * from "./exclusive-create.js";
export * from "./group.js";
export * from "./info.js";
export * from "./key-lock.js";
export * from "./lru.js";
export * from "./metadata-io.js";
export * from "./node-documents.js";
export * from "./nodes.js";
export * from "./numpy-style-creation.js";
export * from "./options-like.js";
export * from "./read-modify-write.js";
export * from "./resize.js";
export * from "./selection-io.js";
export * from "./sharded-access.js";
export * from "./sharding-config.js";
export * from "./store-logging.js";
export * from "./tree.js";
export * from "./update-consolidated.js";
export * from "./values.js";
export * from "./write-nodes.js";

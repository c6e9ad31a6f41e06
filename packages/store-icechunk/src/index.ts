/**
 * Reads Icechunk repositories (spec versions 1 and 2) in plain TypeScript over any `@z` store:
 * branches, tags, snapshot history, time travel, and a read-only Zarr store per snapshot whose
 * chunks come inline from manifests, from the repository's chunk files, or from virtual targets;
 * and writes spec version 2 repositories through sessions and commits.
 * @packageDocumentation
 */

export type { SnapshotChanges } from "./changes.js";
export type { ChunkKeyEncoding } from "./chunk-key.js";
export * from "./errors.js";
export type { ForkChunk, ForkPiece, ForkResult } from "./fork.js";
export type { DecodeLimits, FileHeader, FileTypeName } from "./format/header.js";
export type { ChunkPayload, VirtualChecksum } from "./format/manifest.js";
export type { Metadata } from "./format/metadata-item.js";
export { decodeObjectId, encodeObjectId, INITIAL_SNAPSHOT_ID } from "./format/object-id.js";
export type { SnapshotInfo } from "./format/repo-info.js";
export type { ManifestRef, Snapshot, SnapshotNode } from "./format/snapshot.js";
export type { MovedNode, TransactionLog } from "./format/transaction-log.js";
export {
  createRepository,
  type OpenRepositoryOptions,
  openRepository,
  Repository,
  type SessionTarget,
} from "./repository.js";
export { ReadonlySession } from "./session.js";
export type { ChangedNode, SessionChanges } from "./session-changes.js";
export { INLINE_THRESHOLD, SessionStore } from "./session-store.js";
export { SnapshotStore } from "./snapshot-store.js";
export {
  fileSource,
  type HttpSourceOptions,
  httpSource,
  type StoreSourceOptions,
  storeSource,
  type VirtualChunkSource,
  type VirtualReadOptions,
} from "./virtual-sources.js";
export { type CommitOptions, WritableSession } from "./writable-session.js";

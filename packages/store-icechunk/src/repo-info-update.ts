import { ConflictError, type Readable, type Writable } from "@z/store-core";
import { IcechunkConflictError, IcechunkRefNotFoundError, IcechunkSessionError } from "./errors.js";
import { metadataItems, randomId } from "./format/encode.js";
import {
  encodeRepoInfo,
  type RawRepoInfo,
  type RepoUpdate,
  readRawRepoInfo,
} from "./format/encode-repo-info.js";
import { encodeSnapshot } from "./format/encode-snapshot.js";
import type { DecodeLimits } from "./format/header.js";
import { encodeObjectId, INITIAL_SNAPSHOT_ID } from "./format/object-id.js";
import { isValidRefName } from "./format/ref-file.js";

/** A store the repository can be written through: conditional writes and versioned reads. */
export type WritableRepoStore = Readable & Writable;

const REPO = "repo";
/** Attempts of one ref update before giving up on a store that keeps changing under it. */
const MAX_ATTEMPTS = 50;

/** Checks the store can hold a writable repository. @throws IcechunkSessionError */
export function checkWritable(store: Readable): WritableRepoStore {
  const s = store as Partial<WritableRepoStore>;
  if (typeof s.set !== "function" || !s.conditionalWrites || typeof s.getVersioned !== "function")
    throw new IcechunkSessionError(
      "Writing an Icechunk repository needs a store with conditional writes (getVersioned and set with ifMatch): MapStore, FsStore, S3Store",
    );
  return store as WritableRepoStore;
}

/** A name for the copy of a replaced repo info, newest first in listings, as the official writer names it. */
function backupName(): string {
  const timeIndex = (32503680000000 - Date.now()).toString().padStart(14, "0");
  return `${REPO}.${timeIndex}.${encodeObjectId(randomId(12))}`;
}

/**
 * Rewrites the repo info file with a conditional write: reads it with its version, applies
 * `mutate` (which throws to refuse), keeps a copy of the replaced file under `overwritten/` and
 * writes the new one only if the file still has the version read; a lost race reads again.
 */
export async function updateRepoInfo(
  store: WritableRepoStore,
  limits: DecodeLimits,
  mutate: (info: RawRepoInfo) => RepoUpdate,
): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const current = await store.getVersioned?.(REPO);
    if (current === undefined)
      throw new IcechunkSessionError("The repository has no repo info file (spec version 2)");
    const info = await readRawRepoInfo(REPO, current.value, limits);
    const update = mutate(info);
    const at = Math.max(Date.now() * 1000, info.latestUpdateMicros + 1);
    const backup = backupName();
    await store.set(`overwritten/${backup}`, current.value);
    const bytes = await encodeRepoInfo(info, update, at, backup);
    try {
      await store.set(REPO, bytes, { ifMatch: current.version });
      return;
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(200, 5 * 2 ** attempt)));
    }
  }
  throw new IcechunkSessionError(
    `The repo info file changed under ${MAX_ATTEMPTS} attempts to update it`,
  );
}

/** Checks a new ref name. @throws IcechunkRefNotFoundError */
export function checkRefName(kind: "branch" | "tag", name: string): void {
  if (!isValidRefName(name))
    throw new IcechunkRefNotFoundError(kind, name, `: not a valid ${kind} name`);
}

/** The ops of refs on a spec version 2 repository. */
export const refOps = {
  createBranch:
    (name: string, snapshot: string) =>
    (info: RawRepoInfo): RepoUpdate => {
      checkSnapshot(info, snapshot);
      const actual = info.branches.get(name);
      if (actual !== undefined) throw new IcechunkConflictError(name, undefined, actual);
      info.branches.set(name, snapshot);
      return { type: "branchCreated", name };
    },
  createTag:
    (name: string, snapshot: string) =>
    (info: RawRepoInfo): RepoUpdate => {
      checkSnapshot(info, snapshot);
      const actual = info.tags.get(name);
      if (actual !== undefined || info.deletedTags.includes(name))
        throw new IcechunkConflictError(`tag ${name}`, undefined, actual ?? "a deleted tag");
      info.tags.set(name, snapshot);
      return { type: "tagCreated", name };
    },
  resetBranch:
    (name: string, snapshot: string, from?: string) =>
    (info: RawRepoInfo): RepoUpdate => {
      checkSnapshot(info, snapshot);
      const previous = info.branches.get(name);
      if (previous === undefined) throw new IcechunkRefNotFoundError("branch", name);
      if (from !== undefined && previous !== from)
        throw new IcechunkConflictError(name, from, previous);
      info.branches.set(name, snapshot);
      return { type: "branchReset", name, previous };
    },
  deleteBranch:
    (name: string) =>
    (info: RawRepoInfo): RepoUpdate => {
      const previous = info.branches.get(name);
      if (previous === undefined) throw new IcechunkRefNotFoundError("branch", name);
      if (name === "main") throw new IcechunkSessionError("The main branch cannot be deleted");
      info.branches.delete(name);
      return { type: "branchDeleted", name, previous };
    },
  deleteTag:
    (name: string) =>
    (info: RawRepoInfo): RepoUpdate => {
      const previous = info.tags.get(name);
      if (previous === undefined) throw new IcechunkRefNotFoundError("tag", name);
      info.tags.delete(name);
      info.deletedTags.push(name);
      return { type: "tagDeleted", name, previous };
    },
};

function checkSnapshot(info: RawRepoInfo, id: string): void {
  if (!info.snapshots.has(id))
    throw new IcechunkSessionError(`Snapshot ${id} is not in the repository`);
}

/**
 * Writes an empty spec version 2 repository as the official implementation does: the first
 * snapshot (`1CECHNKREP0F1RSTCMT0`, no nodes, "Repository initialized"), its transaction log,
 * and a repo info file with branch `main` on it. Refuses a store that already holds one.
 */
export async function initRepository(store: WritableRepoStore): Promise<void> {
  const now = new Date();
  const metadata = metadataItems({ __icechunk: { is_root: true } });
  const message = "Repository initialized";
  const snapshot = await encodeSnapshot({
    id: INITIAL_SNAPSHOT_ID,
    parentId: undefined,
    nodes: [],
    flushedAt: now,
    message,
    metadata,
    manifestFiles: [],
  });
  await store.set(`snapshots/${INITIAL_SNAPSHOT_ID}`, snapshot);
  const info: RawRepoInfo = {
    branches: new Map([["main", INITIAL_SNAPSHOT_ID]]),
    tags: new Map(),
    deletedTags: [],
    snapshots: new Map([
      [
        INITIAL_SNAPSHOT_ID,
        {
          id: INITIAL_SNAPSHOT_ID,
          parentId: undefined,
          flushedAtMicros: now.getTime() * 1000,
          message,
          metadata,
        },
      ],
    ]),
    status: { availability: 0, setAtMicros: now.getTime() * 1000, reason: undefined },
    metadata: [],
    config: undefined,
    latestUpdateMicros: 0,
  };
  const bytes = await encodeRepoInfo(
    info,
    { type: "initialized" },
    now.getTime() * 1000,
    undefined,
  );
  try {
    await store.set(REPO, bytes, { ifNoneMatch: "*" });
  } catch (error) {
    if (error instanceof ConflictError)
      throw new IcechunkSessionError("The store already holds an Icechunk repository");
    throw error;
  }
}

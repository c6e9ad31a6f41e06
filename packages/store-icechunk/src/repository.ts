import {
  isListable,
  type Readable,
  type StoreLike,
  toStore,
  UnsupportedOperationError,
} from "@z/store-core";
import { changesOf, type SnapshotChanges } from "./changes.js";
import {
  IcechunkFormatError,
  IcechunkObjectMissingError,
  IcechunkRefNotFoundError,
  IcechunkRepositoryNotFoundError,
  IcechunkSessionError,
  IcechunkSnapshotNotFoundError,
} from "./errors.js";
import { checkForkPiece, type ForkPiece } from "./fork.js";
import { DEFAULT_LIMITS, type DecodeLimits } from "./format/header.js";
import { decodeObjectId, encodeObjectId } from "./format/object-id.js";
import {
  branchRefKey,
  decodeRefFile,
  isValidRefName,
  tagRefKey,
  tagTombstoneKey,
} from "./format/ref-file.js";
import { decodeRepoInfo, type RepoInfo, type SnapshotInfo } from "./format/repo-info.js";
import { decodeSnapshot, type Snapshot } from "./format/snapshot.js";
import { decodeTransactionLog, type TransactionLog } from "./format/transaction-log.js";
import {
  checkRefName,
  checkWritable,
  initRepository,
  refOps,
  updateRepoInfo,
} from "./repo-info-update.js";
import { ReadonlySession } from "./session.js";
import { nodeOfZarrJson } from "./session-changes.js";
import type { VirtualChunkSource } from "./virtual-sources.js";
import { WritableSession } from "./writable-session.js";

/** Options of {@link openRepository}. */
export interface OpenRepositoryOptions extends Partial<DecodeLimits> {
  /**
   * The sources of virtual chunks by URL prefix (`"https://data.example.org/"`,
   * `"s3://bucket/"`, `"file:///data/"`): a virtual chunk is read only when its URL starts with
   * one of these prefixes (the longest wins), so a repository cannot make the reader fetch URLs
   * the user did not allow.
   */
  virtualChunks?: Record<string, VirtualChunkSource>;
}

/** Which snapshot a session reads. */
export type SessionTarget =
  | {
      /** The branch name. */
      branch: string;
      /** The branch as it was at this time: its newest snapshot committed no later. */
      asOf?: Date;
    }
  | {
      /** The tag name. */
      tag: string;
    }
  | {
      /** The snapshot id (20 characters of Crockford base 32). */
      snapshotId: string;
    };

/** The repository file at `$ROOT/repo` in spec version 2. */
const REPO_INFO_KEY = "repo";

/**
 * Opens an Icechunk repository stored in any store (a folder, an HTTP server, S3, a `Map`),
 * spec version 1 (ref files under `refs/`) or 2 (the `repo` info file).
 * @example
 * ```ts
 * const repo = await openRepository(new HttpStore("https://example.org/repo.icechunk"));
 * const session = await repo.readonlySession({ branch: "main" });
 * const arr = await openArray(session.store, { path: "temperature" });
 * ```
 * @throws IcechunkRepositoryNotFoundError when the store holds no repository
 * @category Open and create
 */
export async function openRepository(
  store: StoreLike,
  options: OpenRepositoryOptions = {},
): Promise<Repository> {
  const readable = toStore(store);
  const limits = { ...DEFAULT_LIMITS, ...options };
  const info = await readRepoInfo(readable, limits);
  if (info === undefined && (await readable.get(branchRefKey("main"))) === undefined)
    throw new IcechunkRepositoryNotFoundError(
      "No Icechunk repository here: neither a repo file (spec version 2) nor refs/branch.main/ref.json (spec version 1)",
    );
  return new Repository(readable, limits, options.virtualChunks ?? {}, info === undefined ? 1 : 2);
}

/**
 * Creates an empty Icechunk repository (spec version 2, as the official implementation writes
 * by default) in a store with conditional writes: the first snapshot and branch `main` on it.
 * @example
 * ```ts
 * const repo = await createRepository(new MapStore());
 * const session = await repo.writableSession({ branch: "main" });
 * ```
 * @throws IcechunkSessionError when the store cannot write conditionally or already holds a repository
 * @category Open and create
 */
export async function createRepository(
  store: StoreLike,
  options: OpenRepositoryOptions = {},
): Promise<Repository> {
  await initRepository(checkWritable(toStore(store)));
  return openRepository(store, options);
}

async function readRepoInfo(store: Readable, limits: DecodeLimits): Promise<RepoInfo | undefined> {
  const bytes = await store.get(REPO_INFO_KEY);
  return bytes === undefined ? undefined : decodeRepoInfo(REPO_INFO_KEY, bytes, limits);
}

/**
 * An Icechunk repository: its branches, tags and snapshots, and read-only sessions on any of
 * them. Branches and tags are read afresh on each call.
 */
export class Repository {
  /** @internal */
  constructor(
    /** The store holding the repository. */
    readonly store: Readable,
    /** The bound on metadata files' decoded size. */
    readonly limits: DecodeLimits,
    /** The virtual chunk sources by URL prefix. */
    readonly virtualChunks: Record<string, VirtualChunkSource>,
    /** How refs are stored: 1 (ref files), 2 (the repo info file). */
    readonly specVersion: 1 | 2,
  ) {}

  async #info(): Promise<RepoInfo> {
    const info = await readRepoInfo(this.store, this.limits);
    if (info === undefined)
      throw new IcechunkFormatError(REPO_INFO_KEY, "the repo info file is gone");
    return info;
  }

  /** The branch names, sorted. */
  async listBranches(): Promise<string[]> {
    if (this.specVersion === 2) return [...(await this.#info()).branches.keys()].sort();
    return (await this.#listV1Refs()).branches;
  }

  /** The tag names (deleted tags left out), sorted. */
  async listTags(): Promise<string[]> {
    if (this.specVersion === 2) return [...(await this.#info()).tags.keys()].sort();
    return (await this.#listV1Refs()).tags;
  }

  async #listV1Refs(): Promise<{ branches: string[]; tags: string[] }> {
    if (!isListable(this.store))
      throw new UnsupportedOperationError(
        "Listing the branches and tags of a spec version 1 Icechunk repository needs a store that lists (its refs are files under refs/); a named branch or tag reads without listing",
      );
    const { prefixes } = await this.store.listDir("refs/");
    const branches: string[] = [];
    const tags: string[] = [];
    for (const p of prefixes) {
      const name = p.slice("refs/".length, -1);
      if (name.startsWith("branch.")) branches.push(name.slice(7));
      else if (name.startsWith("tag.")) {
        const tag = name.slice(4);
        const { keys } = await this.store.listDir(p);
        if (keys.includes(tagRefKey(tag)) && !keys.includes(tagTombstoneKey(tag))) tags.push(tag);
      }
    }
    return { branches: branches.sort(), tags: tags.sort() };
  }

  /** The snapshot id a branch points to. @throws IcechunkRefNotFoundError */
  async lookupBranch(name: string): Promise<string> {
    if (this.specVersion === 2) {
      const id = (await this.#info()).branches.get(name);
      if (id === undefined) throw new IcechunkRefNotFoundError("branch", name);
      return id;
    }
    if (!isValidRefName(name))
      throw new IcechunkRefNotFoundError("branch", name, ": not a valid branch name");
    const key = branchRefKey(name);
    const bytes = await this.store.get(key);
    if (bytes === undefined) throw new IcechunkRefNotFoundError("branch", name);
    return decodeRefFile(key, bytes);
  }

  /** The snapshot id a tag points to. @throws IcechunkRefNotFoundError */
  async lookupTag(name: string): Promise<string> {
    if (this.specVersion === 2) {
      const info = await this.#info();
      const id = info.tags.get(name);
      if (id === undefined)
        throw new IcechunkRefNotFoundError(
          "tag",
          name,
          info.deletedTags.includes(name) ? ": it was deleted" : "",
        );
      return id;
    }
    if (!isValidRefName(name))
      throw new IcechunkRefNotFoundError("tag", name, ": not a valid tag name");
    const key = tagRefKey(name);
    const [bytes, tombstone] = await Promise.all([
      this.store.get(key),
      this.store.get(tagTombstoneKey(name)),
    ]);
    if (bytes === undefined || tombstone !== undefined)
      throw new IcechunkRefNotFoundError(
        "tag",
        name,
        tombstone !== undefined ? ": it was deleted" : "",
      );
    return decodeRefFile(key, bytes);
  }

  /** Reads a snapshot file. @throws IcechunkSnapshotNotFoundError */
  async readSnapshot(snapshotId: string): Promise<Snapshot> {
    const id = checkSnapshotId(snapshotId);
    const key = `snapshots/${id}`;
    const bytes = await this.store.get(key);
    if (bytes === undefined) throw new IcechunkSnapshotNotFoundError(id);
    const snapshot = await decodeSnapshot(key, bytes, this.limits);
    if (snapshot.id !== id) throw new IcechunkFormatError(key, `it holds snapshot ${snapshot.id}`);
    return snapshot;
  }

  /** A snapshot's summary: from the repo info (version 2) or its file (version 1). */
  async snapshotInfo(snapshotId: string): Promise<SnapshotInfo> {
    const id = checkSnapshotId(snapshotId);
    if (this.specVersion === 2) {
      const info = (await this.#info()).snapshots.get(id);
      if (info === undefined) throw new IcechunkSnapshotNotFoundError(id);
      return info;
    }
    const { parentId, flushedAt, message, metadata } = await this.readSnapshot(id);
    return { id, parentId, flushedAt, message, metadata };
  }

  /** Reads a snapshot's transaction log. @throws IcechunkObjectMissingError */
  async readTransactionLog(snapshotId: string): Promise<TransactionLog> {
    const id = checkSnapshotId(snapshotId);
    const key = `transactions/${id}`;
    const bytes = await this.store.get(key);
    if (bytes === undefined) throw new IcechunkObjectMissingError(key, `snapshot ${id}`);
    const log = await decodeTransactionLog(key, bytes, this.limits);
    if (log.id !== id) throw new IcechunkFormatError(key, `it holds the log of snapshot ${log.id}`);
    return log;
  }

  /**
   * What the commit that made a snapshot changed, by node path: its transaction log, with node
   * ids resolved through the snapshot and its parent.
   */
  async changes(snapshotId: string): Promise<SnapshotChanges> {
    const id = checkSnapshotId(snapshotId);
    const [log, snapshot, info] = await Promise.all([
      this.readTransactionLog(id),
      this.readSnapshot(id),
      this.snapshotInfo(id),
    ]);
    const parent = info.parentId === undefined ? undefined : await this.readSnapshot(info.parentId);
    return changesOf(log, snapshot, parent);
  }

  /**
   * The history of a snapshot, a branch or a tag: the snapshot first, then its parent, back to
   * the repository's first snapshot.
   */
  async ancestry(
    from: string | { branch: string } | { tag: string } | { snapshotId: string },
  ): Promise<SnapshotInfo[]> {
    let id: string | undefined = await this.#resolve(
      typeof from === "string" ? { snapshotId: from } : from,
    );
    const out: SnapshotInfo[] = [];
    const all = this.specVersion === 2 ? (await this.#info()).snapshots : undefined;
    const seen = new Set<string>();
    while (id !== undefined) {
      if (seen.has(id))
        throw new IcechunkFormatError(`snapshots/${id}`, "the snapshot history has a cycle");
      seen.add(id);
      const info: SnapshotInfo | undefined = all ? all.get(id) : await this.snapshotInfo(id);
      if (info === undefined)
        throw new IcechunkSnapshotNotFoundError(id, " (an ancestor named by the repo info)");
      out.push(info);
      id = info.parentId;
    }
    return out;
  }

  /**
   * A session that writes to a branch: write through its `store`, then `commit`.
   * @throws IcechunkRefNotFoundError for an unknown branch
   * @throws IcechunkSessionError for a spec version 1 repository or a store that cannot write conditionally
   */
  async writableSession(target: { branch: string }): Promise<WritableSession> {
    const store = this.#writable();
    if (typeof target?.branch !== "string")
      throw new IcechunkSessionError(
        `A writable session needs a branch; tags and snapshots are read-only (got ${JSON.stringify(target)})`,
      );
    const tip = await this.lookupBranch(target.branch);
    return new WritableSession(this, target.branch, await this.readSnapshot(tip), store);
  }

  /**
   * A session from another session's `fork()` piece (in this or another process): it writes
   * chunks of the forking session's arrays, and `done()` gives what it wrote back.
   */
  async sessionFromFork(piece: ForkPiece): Promise<WritableSession> {
    const { branch, snapshotId, nodes } = checkForkPiece(piece);
    const session = new WritableSession(
      this,
      branch,
      await this.readSnapshot(snapshotId),
      this.#writable(),
    );
    const encoder = new TextEncoder();
    for (const [path, node] of nodes) {
      const parsed = node === null ? null : nodeOfZarrJson(node.id, encoder.encode(node.zarrJson));
      if (parsed === undefined)
        throw new IcechunkSessionError(
          `The fork piece's node ${JSON.stringify(path)} is not a Zarr v3 node`,
        );
      session.changes.nodes.set(path, parsed);
    }
    session.markForked();
    return session;
  }

  #writable() {
    if (this.specVersion !== 2)
      throw new IcechunkSessionError(
        "Writing is supported for spec version 2 repositories (the official default); this one is version 1",
      );
    return checkWritable(this.store);
  }

  /** Creates a branch at a snapshot. @throws IcechunkConflictError when it exists */
  async createBranch(name: string, snapshotId: string): Promise<void> {
    checkRefName("branch", name);
    const id = checkSnapshotId(snapshotId);
    await updateRepoInfo(this.#writable(), this.limits, refOps.createBranch(name, id));
  }

  /** Creates a tag at a snapshot. @throws IcechunkConflictError when it exists or existed */
  async createTag(name: string, snapshotId: string): Promise<void> {
    checkRefName("tag", name);
    const id = checkSnapshotId(snapshotId);
    await updateRepoInfo(this.#writable(), this.limits, refOps.createTag(name, id));
  }

  /**
   * Points a branch at another snapshot; with `from`, only if it still points there.
   * @throws IcechunkConflictError when `from` is given and the branch moved
   */
  async resetBranch(name: string, snapshotId: string, from?: string): Promise<void> {
    const id = checkSnapshotId(snapshotId);
    await updateRepoInfo(this.#writable(), this.limits, refOps.resetBranch(name, id, from));
  }

  /** Deletes a branch (not `main`). */
  async deleteBranch(name: string): Promise<void> {
    await updateRepoInfo(this.#writable(), this.limits, refOps.deleteBranch(name));
  }

  /** Deletes a tag; its name cannot be used again, as in the official implementation. */
  async deleteTag(name: string): Promise<void> {
    await updateRepoInfo(this.#writable(), this.limits, refOps.deleteTag(name));
  }

  async #resolve(target: SessionTarget): Promise<string> {
    if ("snapshotId" in target) return checkSnapshotId(target.snapshotId);
    if ("tag" in target) return this.lookupTag(target.tag);
    const tip = await this.lookupBranch(target.branch);
    if (target.asOf === undefined) return tip;
    const asOf = target.asOf.getTime();
    for (const info of await this.ancestry(tip))
      if (info.flushedAt.getTime() <= asOf) return info.id;
    throw new IcechunkSnapshotNotFoundError(
      `of branch ${JSON.stringify(target.branch)} as of ${target.asOf.toISOString()}`,
      ": the branch has no snapshot that old",
    );
  }

  /**
   * A read-only session on a branch (optionally as it was at a time), a tag or a snapshot:
   * its `store` presents the snapshot's Zarr hierarchy to `openArray`, `openGroup` and `get`.
   */
  async readonlySession(target: SessionTarget): Promise<ReadonlySession> {
    const id = await this.#resolve(target);
    return new ReadonlySession(this, await this.readSnapshot(id));
  }
}

function checkSnapshotId(id: string): string {
  const bytes = decodeObjectId(id, 12);
  if (bytes === undefined)
    throw new IcechunkSnapshotNotFoundError(
      JSON.stringify(id),
      ": not a 20-character base 32 snapshot id",
    );
  return encodeObjectId(bytes);
}

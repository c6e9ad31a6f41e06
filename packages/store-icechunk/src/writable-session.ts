import type { Readable, Writable } from "@z/store-core";
import { IcechunkConflictError, IcechunkFormatError, IcechunkSessionError } from "./errors.js";
import {
  type ForkPiece,
  type ForkResult,
  forkPieceOf,
  forkResultOf,
  mergeForkResults,
} from "./fork.js";
import { readRootTable } from "./format/decode-context.js";
import { metadataItems, randomId } from "./format/encode.js";
import { encodeManifest } from "./format/encode-manifest.js";
import {
  encodeSnapshot,
  type ManifestFileInfo,
  type NodeToWrite,
} from "./format/encode-snapshot.js";
import { type ChangesToWrite, encodeTransactionLog } from "./format/encode-transaction-log.js";
import { type ChunkPayload, decodeManifest } from "./format/manifest.js";
import { encodeObjectId } from "./format/object-id.js";
import type { Snapshot } from "./format/snapshot.js";
import { updateRepoInfo } from "./repo-info-update.js";
import type { Repository } from "./repository.js";
import { nodeOfZarrJson, type SessionChanges } from "./session-changes.js";
import { SessionStore } from "./session-store.js";
import { SnapshotStore } from "./snapshot-store.js";

/** Options of {@link WritableSession.commit}. */
export interface CommitOptions {
  /** Snapshot metadata (JSON-like values). */
  metadata?: Record<string, unknown>;
  /**
   * When another commit moved the branch first: re-apply this session's changes on the new tip
   * if they do not overlap (else an IcechunkConflictError lists the overlapping paths), instead
   * of failing at once.
   */
  rebase?: boolean;
}

/**
 * A session that writes to a branch: its `store` takes Zarr writes (`createArray`, `set`), held
 * in the session until {@link WritableSession.commit} writes a new snapshot and moves the branch
 * with a conditional write.
 */
export class WritableSession {
  /** The snapshot with the session's changes on top, as a writable Zarr store. */
  readonly store: SessionStore;
  /** The session's changes by path. */
  readonly changes: SessionChanges = { nodes: new Map(), chunks: new Map() };
  #base: Snapshot;
  #baseStore: SnapshotStore;
  #committed: string | undefined;
  #forked = false;

  /** @internal */
  constructor(
    /** The repository. */
    readonly repository: Repository,
    /** The branch the session commits to. */
    readonly branch: string,
    base: Snapshot,
    /** The repository's store, written through. */
    readonly repoStore: Readable & Writable,
  ) {
    this.#base = base;
    this.#baseStore = new SnapshotStore(repository, base);
    const host = this;
    this.store = new SessionStore({
      changes: this.changes,
      get base() {
        return host.#base;
      },
      get baseStore() {
        return host.#baseStore;
      },
      repoStore,
      checkOpen: () => this.#checkOpen(),
    });
  }

  /** The snapshot the session started from (after a rebase, the tip it was rebased on). */
  get snapshotId(): string {
    return this.#base.id;
  }

  /** Whether the session holds changes. */
  get hasChanges(): boolean {
    return this.changes.nodes.size > 0 || this.changes.chunks.size > 0;
  }

  #checkOpen(): void {
    if (this.#committed !== undefined)
      throw new IcechunkSessionError(
        `The session was committed (snapshot ${this.#committed}); open a new one to write again`,
      );
  }

  /** @internal Marks a session made from a fork piece: it hands back `done()`, never commits. */
  markForked(): void {
    this.#forked = true;
  }

  /**
   * A piece of this session for another process (JSON): `repo.sessionFromFork(piece)` there
   * gives a session on the same snapshot with this session's nodes, whose chunk writes go to
   * the repository's `chunks/` at once; its `done()` result comes back to {@link merge}. Create
   * the arrays here before forking; forks write chunks only (disjoint ones, shard-aligned for
   * sharded arrays).
   */
  fork(): ForkPiece {
    this.#checkOpen();
    return forkPieceOf(this.branch, this.#base.id, this.changes);
  }

  /** In a session made from a fork piece: what it wrote, for the forking session's `merge`. */
  done(): ForkResult {
    if (!this.#forked)
      throw new IcechunkSessionError("done() is for sessions made by repo.sessionFromFork(piece)");
    this.#checkOpen();
    this.#committed = "(handed over by done())";
    return forkResultOf(this.#base.id, this.changes);
  }

  /**
   * Takes the chunks forks wrote into this session, to commit them with its own changes.
   * @throws IcechunkConflictError when two results write the same chunk, or one comes from
   * another snapshot
   */
  merge(...results: ForkResult[]): void {
    this.#checkOpen();
    mergeForkResults(this.changes, this.#base.id, this.branch, results, (path) =>
      this.store.node(path),
    );
  }

  /**
   * Moves the session onto the branch's current tip, keeping its changes: refused with an
   * IcechunkConflictError naming the paths when a commit since the session's snapshot changed
   * a node or chunk this session changed too.
   */
  async rebase(): Promise<void> {
    this.#checkOpen();
    const tip = await this.repository.lookupBranch(this.branch);
    if (tip === this.#base.id) return;
    const overlap = new Set<string>();
    for (const info of await this.repository.ancestry(tip)) {
      if (info.id === this.#base.id) break;
      const theirs = await this.repository.changes(info.id);
      const nodePaths = [
        ...theirs.newGroups,
        ...theirs.newArrays,
        ...theirs.deletedGroups,
        ...theirs.deletedArrays,
        ...theirs.updatedGroups,
        ...theirs.updatedArrays,
      ].map((p) => (p === "/" ? "" : p.slice(1)));
      for (const p of nodePaths)
        if (this.changes.nodes.has(p)) overlap.add(p === "" ? "/" : `/${p}`);
      // Chunks written to an array whose metadata changed or that is gone may no longer fit it.
      for (const p of [...theirs.updatedArrays, ...theirs.deletedArrays])
        if (this.changes.chunks.has(p === "/" ? "" : p.slice(1))) overlap.add(p);
      for (const [p, coords] of Object.entries(theirs.updatedChunks)) {
        const mine = this.changes.chunks.get(p === "/" ? "" : p.slice(1));
        if (mine === undefined) continue;
        for (const c of coords) if (mine.has(c.join(","))) overlap.add(`${p} chunk ${c.join(",")}`);
      }
    }
    if (overlap.size > 0)
      throw new IcechunkConflictError(this.branch, this.#base.id, tip, [...overlap].sort());
    this.#base = await this.repository.readSnapshot(tip);
    this.#baseStore = new SnapshotStore(this.repository, this.#base);
  }

  /**
   * Writes the session's changes as a new snapshot (manifests, snapshot, transaction log) and
   * moves the branch to it if the branch still points at the session's snapshot; resolves to
   * the new snapshot id.
   * @throws IcechunkConflictError when another commit moved the branch first (with `rebase`,
   * only when the changes overlap)
   */
  async commit(message: string, options: CommitOptions = {}): Promise<string> {
    this.#checkOpen();
    if (this.#forked)
      throw new IcechunkSessionError(
        "A session made from a fork piece does not commit: hand done() back to the session that forked",
      );
    if (!this.hasChanges)
      throw new IcechunkSessionError(
        `The session on branch ${JSON.stringify(this.branch)} has no changes to commit`,
      );
    for (;;) {
      const written = await this.#writeSnapshot(message, options.metadata ?? {});
      const parent = this.#base.id;
      try {
        await updateRepoInfo(this.repoStore, this.repository.limits, (info) => {
          const actual = info.branches.get(this.branch);
          if (actual !== parent) throw new IcechunkConflictError(this.branch, parent, actual);
          info.snapshots.set(written.id, { ...written, parentId: parent });
          info.branches.set(this.branch, written.id);
          return { type: "newCommit", branch: this.branch, snapshot: written.id };
        });
      } catch (error) {
        if (options.rebase && error instanceof IcechunkConflictError && error.paths.length === 0) {
          await this.rebase();
          continue;
        }
        throw error;
      }
      this.#committed = written.id;
      return written.id;
    }
  }

  async #writeSnapshot(message: string, metadata: Record<string, unknown>) {
    const repo = this.repository;
    const base = this.#base;
    const id = encodeObjectId(randomId(12));
    const baseByPath = new Map(base.nodes.map((n) => [n.path === "/" ? "" : n.path.slice(1), n]));
    const nodes = new Map<string, NodeToWrite>();
    for (const [path, n] of baseByPath) {
      const parsed = nodeOfZarrJson(n.id, n.zarrJson);
      nodes.set(path, { ...n, chunkShape: parsed?.chunkShape ?? [], path: n.path });
    }
    const log: ChangesToWrite = {
      newGroups: [],
      newArrays: [],
      deletedGroups: [],
      deletedArrays: [],
      updatedArrays: [],
      updatedGroups: [],
      updatedChunks: new Map(),
    };
    for (const [path, changed] of this.changes.nodes) {
      const old = baseByPath.get(path);
      if (old !== undefined && (changed === null || changed.id !== old.id)) {
        (old.kind === "array" ? log.deletedArrays : log.deletedGroups).push(old.id);
        nodes.delete(path);
      }
      if (changed === null) continue;
      const fresh = old === undefined || changed.id !== old.id;
      if (fresh) (changed.kind === "array" ? log.newArrays : log.newGroups).push(changed.id);
      else if (!bytesEqual(old.zarrJson, changed.zarrJson))
        (changed.kind === "array" ? log.updatedArrays : log.updatedGroups).push(changed.id);
      nodes.set(path, {
        ...changed,
        path: path === "" ? "/" : `/${path}`,
        manifests: fresh ? [] : (old?.manifests ?? []),
      });
    }
    // One new manifest holds every array whose chunks changed: its old references and the new.
    const manifestId = encodeObjectId(randomId(12));
    const arrays: { nodeId: string; refs: Map<string, ChunkPayload> }[] = [];
    for (const [path, chunks] of this.changes.chunks) {
      const node = nodes.get(path);
      if (node === undefined || node.kind !== "array" || chunks.size === 0) continue;
      const refs = new Map<string, ChunkPayload>();
      for (const ref of node.manifests) {
        const key = `manifests/${ref.manifestId}`;
        const bytes = await repo.store.get(key);
        if (bytes === undefined) throw new IcechunkFormatError(key, "it is missing");
        const m = await decodeManifest(key, bytes, repo.limits);
        for (const [k, v] of m.arrays.get(node.id) ?? []) refs.set(k, v);
      }
      const touched: number[][] = [];
      for (const [k, v] of chunks) {
        touched.push(k === "" ? [] : k.split(",").map(Number));
        if (v === null) refs.delete(k);
        else refs.set(k, v);
      }
      log.updatedChunks.set(node.id, touched);
      node.manifests = [];
      if (refs.size === 0) continue;
      const extents = node.shape.map((_, d) => {
        let lo = Number.POSITIVE_INFINITY;
        let hi = 0;
        for (const k of refs.keys()) {
          const c = Number(k.split(",")[d]);
          lo = Math.min(lo, c);
          hi = Math.max(hi, c + 1);
        }
        return [lo, hi] as [number, number];
      });
      node.manifests = [{ manifestId, extents }];
      arrays.push({ nodeId: node.id, refs });
    }
    const manifestFiles = await baseManifestFiles(repo, base);
    const used = new Set([...nodes.values()].flatMap((n) => n.manifests.map((m) => m.manifestId)));
    const files = manifestFiles.filter((f) => used.has(f.id));
    if (arrays.length > 0) {
      const bytes = await encodeManifest(manifestId, arrays);
      await this.repoStore.set(`manifests/${manifestId}`, bytes);
      files.push({
        id: manifestId,
        sizeBytes: bytes.length,
        numChunkRefs: arrays.reduce((n, a) => n + a.refs.size, 0),
      });
    }
    const flushedAt = new Date();
    const items = metadataItems(metadata);
    const snapshot = await encodeSnapshot({
      id,
      parentId: base.id,
      nodes: [...nodes.values()],
      flushedAt,
      message,
      metadata: items,
      manifestFiles: files,
    });
    await this.repoStore.set(`transactions/${id}`, await encodeTransactionLog(id, log));
    await this.repoStore.set(`snapshots/${id}`, snapshot);
    return { id, flushedAtMicros: flushedAt.getTime() * 1000, message, metadata: items };
  }
}

/** The manifest files a snapshot lists, with their sizes (kept for the next snapshot). */
async function baseManifestFiles(repo: Repository, base: Snapshot): Promise<ManifestFileInfo[]> {
  const key = `snapshots/${base.id}`;
  const bytes = await repo.store.get(key);
  if (bytes === undefined) return [];
  const { root } = await readRootTable(key, bytes, "snapshot", repo.limits, "Snapshot");
  const v2 = root.tables(7, "manifest_files_v2");
  if (v2 !== undefined)
    return v2.map((t) => ({
      id: encodeObjectId(t.struct(0, 12, "id") ?? new Uint8Array(12)),
      sizeBytes: t.u64(1, "size_bytes"),
      numChunkRefs: t.u32(2, "num_chunk_refs"),
    }));
  return (root.structs(6, 32, "manifest_files") ?? []).map((s) => {
    const v = new DataView(s.buffer, s.byteOffset, 32);
    return {
      id: encodeObjectId(s.subarray(0, 12)),
      sizeBytes: Number(v.getBigUint64(16, true)),
      numChunkRefs: v.getUint32(24, true),
    };
  });
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

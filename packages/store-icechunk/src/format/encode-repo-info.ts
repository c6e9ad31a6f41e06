import { IcechunkFormatError } from "../errors.js";
import { readRootTable } from "./decode-context.js";
import {
  addIdStruct,
  finishFile,
  idBytes,
  metadataVector,
  newBuilder,
  offsetVector,
} from "./encode.js";
import { compareBytes } from "./encode-manifest.js";
import type { DecodeLimits } from "./header.js";
import { encodeObjectId } from "./object-id.js";

/** One snapshot of the repo info, with its metadata as stored (FlexBuffers bytes). */
export interface RawSnapshotInfo {
  id: string;
  parentId: string | undefined;
  flushedAtMicros: number;
  message: string;
  metadata: Array<[string, Uint8Array]>;
}

/** The repo info file's content, kept as stored so a rewrite changes only what it means to. */
export interface RawRepoInfo {
  branches: Map<string, string>;
  tags: Map<string, string>;
  deletedTags: string[];
  snapshots: Map<string, RawSnapshotInfo>;
  status: { availability: number; setAtMicros: number; reason: string | undefined };
  metadata: Array<[string, Uint8Array]>;
  config: Uint8Array | undefined;
  /** When the newest recorded update happened (microseconds). */
  latestUpdateMicros: number;
}

/** The update a rewrite of the repo info records (the union members this package writes). */
export type RepoUpdate =
  | { type: "initialized" }
  | { type: "tagCreated"; name: string }
  | { type: "tagDeleted"; name: string; previous: string }
  | { type: "branchCreated"; name: string }
  | { type: "branchDeleted"; name: string; previous: string }
  | { type: "branchReset"; name: string; previous: string }
  | { type: "newCommit"; branch: string; snapshot: string };

const UPDATE_TYPE: Record<RepoUpdate["type"], number> = {
  initialized: 1,
  tagCreated: 5,
  tagDeleted: 6,
  branchCreated: 7,
  branchDeleted: 8,
  branchReset: 9,
  newCommit: 10,
};

/** Reads the repo info file keeping stored bytes (metadata values, config). */
export async function readRawRepoInfo(
  file: string,
  bytes: Uint8Array,
  limits: DecodeLimits,
): Promise<RawRepoInfo> {
  const { root } = await readRootTable(file, bytes, "repoInfo", limits, "Repo");
  if (root.has(10) || root.has(11))
    throw new IcechunkFormatError(
      file,
      "it sets feature flags, which this writer does not carry over yet",
    );
  const items = (t: ReturnType<typeof root.tables>) =>
    (t ?? []).map((i): [string, Uint8Array] => [
      i.requiredString(0, "name"),
      (i.bytes(1, "value") ?? new Uint8Array()).slice(),
    ]);
  const rows = root.requiredTables(4, "snapshots");
  const ids = rows.map((r) => encodeObjectId(r.struct(0, 12, "id") ?? new Uint8Array(12)));
  const snapshots = new Map<string, RawSnapshotInfo>();
  rows.forEach((r, i) => {
    const parent = r.i32(1, "parent_offset");
    snapshots.set(ids[i], {
      id: ids[i],
      parentId: parent < 0 ? undefined : ids[parent],
      flushedAtMicros: r.u64(2, "flushed_at"),
      message: r.string(3, "message") ?? "",
      metadata: items(r.tables(4, "metadata")),
    });
  });
  const refs = (slot: number) =>
    new Map(
      root
        .requiredTables(slot, "refs")
        .map((r) => [r.requiredString(0, "name"), ids[r.u32(1, "snapshot_index")]] as const),
    );
  const status = root.table(5, "status");
  const latest = root.tables(7, "latest_updates")?.[0];
  return {
    tags: refs(1),
    branches: refs(2),
    deletedTags: root.strings(3, "deleted_tags") ?? [],
    snapshots,
    status: {
      availability: status?.u8(0, "availability") ?? 0,
      setAtMicros: status?.u64(1, "set_at") ?? 0,
      reason: status?.string(2, "limited_availability_reason"),
    },
    metadata: items(root.tables(6, "metadata")),
    config: root.bytes(9, "config")?.slice(),
    latestUpdateMicros: latest?.u64(2, "updated_at") ?? 0,
  };
}

/**
 * Encodes the repo info file (spec version 2) recording one update; `before` names the copy of
 * the previous repo info under `overwritten/`, which holds the older updates.
 */
export async function encodeRepoInfo(
  info: RawRepoInfo,
  update: RepoUpdate,
  updatedAtMicros: number,
  before: string | undefined,
): Promise<Uint8Array> {
  const b = newBuilder();
  const sortedIds = [...info.snapshots.keys()].sort((x, y) =>
    compareBytes(idBytes(x, 12), idBytes(y, 12)),
  );
  const index = new Map(sortedIds.map((id, i) => [id, i]));
  const refVector = (refs: Map<string, string>) =>
    offsetVector(
      b,
      [...refs.keys()].sort().map((name) => {
        const n = b.createString(name);
        const at = index.get(refs.get(name) as string);
        if (at === undefined) throw new RangeError(`ref ${name} points at an unknown snapshot`);
        b.startObject(2);
        b.addFieldOffset(0, n, 0);
        b.addFieldInt32(1, at, 0);
        return b.endObject();
      }),
    );
  const tags = refVector(info.tags);
  const branches = refVector(info.branches);
  const deleted = offsetVector(
    b,
    [...info.deletedTags].sort().map((t) => b.createString(t)),
  );
  const snaps = offsetVector(
    b,
    sortedIds.map((id) => {
      const s = info.snapshots.get(id) as RawSnapshotInfo;
      const message = b.createString(s.message);
      const metadata = metadataVector(b, s.metadata);
      b.startObject(6);
      addIdStruct(b, 0, idBytes(id, 12));
      b.addFieldInt32(1, s.parentId === undefined ? -1 : (index.get(s.parentId) ?? -1), 0);
      b.addFieldInt64(2, BigInt(s.flushedAtMicros), 0n);
      b.addFieldOffset(3, message, 0);
      b.addFieldOffset(4, metadata, 0);
      return b.endObject();
    }),
  );
  const reason = info.status.reason === undefined ? 0 : b.createString(info.status.reason);
  b.startObject(3);
  b.addFieldInt8(0, info.status.availability, 0);
  b.addFieldInt64(1, BigInt(info.status.setAtMicros), 0n);
  if (reason) b.addFieldOffset(2, reason, 0);
  const status = b.endObject();
  const metadata = metadataVector(b, info.metadata);
  const updates = offsetVector(b, [updateTable(b, update, updatedAtMicros)]);
  const beforePath = before === undefined ? 0 : b.createString(before);
  const config = info.config === undefined ? 0 : b.createByteVector(info.config);
  b.startObject(13);
  b.addFieldInt8(0, 2, 0);
  b.addFieldOffset(1, tags, 0);
  b.addFieldOffset(2, branches, 0);
  b.addFieldOffset(3, deleted, 0);
  b.addFieldOffset(4, snaps, 0);
  b.addFieldOffset(5, status, 0);
  b.addFieldOffset(6, metadata, 0);
  b.addFieldOffset(7, updates, 0);
  if (beforePath) b.addFieldOffset(8, beforePath, 0);
  if (config) b.addFieldOffset(9, config, 0);
  return finishFile(b, b.endObject(), "repoInfo");
}

function updateTable(b: ReturnType<typeof newBuilder>, u: RepoUpdate, at: number): number {
  let body: number;
  if (u.type === "initialized") {
    b.startObject(0);
    body = b.endObject();
  } else if (u.type === "newCommit") {
    const branch = b.createString(u.branch);
    b.startObject(2);
    b.addFieldOffset(0, branch, 0);
    addIdStruct(b, 1, idBytes(u.snapshot, 12));
    body = b.endObject();
  } else {
    const name = b.createString(u.name);
    b.startObject(2);
    b.addFieldOffset(0, name, 0);
    if ("previous" in u) addIdStruct(b, 1, idBytes(u.previous, 12));
    body = b.endObject();
  }
  b.startObject(4);
  b.addFieldInt8(0, UPDATE_TYPE[u.type], 0);
  b.addFieldOffset(1, body, 0);
  b.addFieldInt64(2, BigInt(at), 0n);
  return b.endObject();
}

import { dateOfMicros, idOf, readRootTable } from "./decode-context.js";
import type { DecodeLimits, FileHeader } from "./header.js";
import { type Metadata, readMetadataItems } from "./metadata-item.js";

/** One snapshot as the repo info lists it. */
export interface SnapshotInfo {
  /** The snapshot id (base 32). */
  id: string;
  /** The parent's id; undefined for the first snapshot. */
  parentId: string | undefined;
  /** When it was committed. */
  flushedAt: Date;
  /** The commit message. */
  message: string;
  /** Snapshot metadata. */
  metadata: Metadata;
}

/** The repo info file (`repo`) of a spec version 2 repository. */
export interface RepoInfo {
  /** The file's header. */
  header: FileHeader;
  /** The repository's spec version. */
  specVersion: number;
  /** Branch name -> snapshot id. */
  branches: Map<string, string>;
  /** Tag name -> snapshot id. */
  tags: Map<string, string>;
  /** Names of deleted tags. */
  deletedTags: string[];
  /** Every snapshot by id. */
  snapshots: Map<string, SnapshotInfo>;
  /** Repository metadata. */
  metadata: Metadata;
}

/** Decodes the repo info file. @throws IcechunkFormatError */
export async function decodeRepoInfo(
  file: string,
  bytes: Uint8Array,
  limits: DecodeLimits,
): Promise<RepoInfo> {
  const { header, buf, root } = await readRootTable(file, bytes, "repoInfo", limits, "Repo");
  const rows = root.requiredTables(4, "snapshots");
  const ids = rows.map((row, i) => idOf(row.struct(0, 12, "id"), buf, `Repo.snapshots[${i}].id`));
  const snapshots = new Map<string, SnapshotInfo>();
  rows.forEach((row, i) => {
    const parent = row.i32(1, "parent_offset");
    if (parent >= ids.length || parent < -1)
      buf.fail(
        `Repo.snapshots[${i}].parent_offset ${parent} is outside the ${ids.length} snapshots`,
      );
    snapshots.set(ids[i], {
      id: ids[i],
      parentId: parent === -1 ? undefined : ids[parent],
      flushedAt: dateOfMicros(row.u64(2, "flushed_at")),
      message: row.string(3, "message") ?? "",
      metadata: readMetadataItems(row.tables(4, "metadata"), header.specVersion),
    });
  });
  const refs = (id: number, name: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const ref of root.requiredTables(id, name)) {
      const refName = ref.requiredString(0, "name");
      const index = ref.u32(1, "snapshot_index");
      if (index >= ids.length)
        buf.fail(`${name} ${JSON.stringify(refName)} points at snapshot ${index} of ${ids.length}`);
      out.set(refName, ids[index]);
    }
    return out;
  };
  return {
    header,
    specVersion: root.u8(0, "spec_version"),
    tags: refs(1, "tags"),
    branches: refs(2, "branches"),
    deletedTags: root.strings(3, "deleted_tags") ?? [],
    snapshots,
    metadata: readMetadataItems(root.tables(6, "metadata"), header.specVersion),
  };
}

import { dateOfMicros, idOf, readRootTable } from "./decode-context.js";
import type { FbTable } from "./flatbuffers.js";
import type { DecodeLimits, FileHeader } from "./header.js";
import { type Metadata, readMetadataItems } from "./metadata-item.js";
import { encodeObjectId } from "./object-id.js";

/** The region of an array's chunk grid a manifest covers: per dimension `[from, to)`. */
export interface ManifestRef {
  /** The manifest's id (its file is `manifests/<id>`). */
  manifestId: string;
  /** Per dimension, the chunk indices `[from, to)` it holds. */
  extents: Array<[number, number]>;
}

/** An array or group of a snapshot. */
export interface SnapshotNode {
  /** 8-byte node id (base 32), stable for the node's life. */
  id: string;
  /** The node path: `/`, `/foo`, `/foo/bar`. */
  path: string;
  /** The node's `zarr.json`, as stored. */
  zarrJson: Uint8Array;
  /** `array` or `group`. */
  kind: "array" | "group";
  /** For arrays, the manifests holding its chunk references. */
  manifests: ManifestRef[];
  /** For arrays, the shape per dimension. */
  shape: number[];
}

/** A snapshot file: the whole hierarchy at one commit. */
export interface Snapshot {
  /** The file's header. */
  header: FileHeader;
  /** Its id (base 32). */
  id: string;
  /** The parent's id in spec version 1 files (version 2 keeps it in the repo info). */
  parentId: string | undefined;
  /** When it was committed. */
  flushedAt: Date;
  /** The commit message. */
  message: string;
  /** Snapshot metadata. */
  metadata: Metadata;
  /** Its nodes, sorted by path. */
  nodes: SnapshotNode[];
}

/** Decodes a snapshot file. @throws IcechunkFormatError */
export async function decodeSnapshot(
  file: string,
  bytes: Uint8Array,
  limits: DecodeLimits,
): Promise<Snapshot> {
  const { header, buf, root } = await readRootTable(file, bytes, "snapshot", limits, "Snapshot");
  const parent = root.struct(1, 12, "parent_id");
  const nodes = root.requiredTables(2, "nodes").map((n) => readNode(n));
  return {
    header,
    id: idOf(root.struct(0, 12, "id"), buf, "Snapshot.id"),
    parentId: parent === undefined ? undefined : encodeObjectId(parent),
    flushedAt: dateOfMicros(root.u64(3, "flushed_at")),
    message: root.string(4, "message") ?? "",
    metadata: readMetadataItems(root.tables(5, "metadata"), header.specVersion),
    nodes,
  };
}

const NODE_DATA_ARRAY = 1;
const NODE_DATA_GROUP = 2;

function readNode(node: FbTable): SnapshotNode {
  const buf = node.buf;
  const path = node.requiredString(1, "path");
  if (!path.startsWith("/")) buf.fail(`node path ${JSON.stringify(path)} is not absolute`);
  // The path becomes store keys: every name must be one a Zarr hierarchy can hold.
  if (
    path !== "/" &&
    path
      .slice(1)
      .split("/")
      .some((name) => !isNodeName(name))
  )
    buf.fail(`node path ${JSON.stringify(path)} has an empty, "." or ".." name or a NUL character`);
  const zarrJson = node.bytes(2, "user_data") ?? buf.fail(`node ${path} has no user_data`);
  const kind = node.u8(3, "node_data_type");
  const data = node.table(4, "node_data") ?? buf.fail(`node ${path} has no node_data`);
  const base = { id: idOf(node.struct(0, 8, "id"), buf, `node ${path} id`), path, zarrJson };
  if (kind === NODE_DATA_GROUP) return { ...base, kind: "group", manifests: [], shape: [] };
  if (kind !== NODE_DATA_ARRAY) buf.fail(`node ${path} has node data type ${kind}`);
  const manifests = data.requiredTables(2, "manifests").map((m) => ({
    manifestId: idOf(m.struct(0, 12, "object_id"), buf, `node ${path} manifest id`),
    extents: (m.structs(1, 8, "extents") ?? buf.fail(`node ${path} manifest has no extents`)).map(
      (s): [number, number] => {
        const v = new DataView(s.buffer, s.byteOffset, 8);
        return [v.getUint32(0, true), v.getUint32(4, true)];
      },
    ),
  }));
  const v2 = data.tables(3, "shape_v2");
  const shape =
    v2 && v2.length > 0
      ? v2.map((d) => d.u64(0, "array_length"))
      : (data.structs(0, 16, "shape") ?? []).map((s) => {
          const length = new DataView(s.buffer, s.byteOffset, 16).getBigUint64(0, true);
          if (length > BigInt(Number.MAX_SAFE_INTEGER))
            buf.fail(`node ${path} has a shape beyond 2^53`);
          return Number(length);
        });
  return { ...base, kind: "array", manifests, shape };
}

/** Whether a node path's name can be a Zarr node's name (no empty, ".", ".." or NUL names). */
function isNodeName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !name.includes("\0");
}

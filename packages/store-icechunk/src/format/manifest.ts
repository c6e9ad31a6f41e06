import { type LocationDecoder, locationDecoder } from "./compressed-location.js";
import { idOf, readRootTable } from "./decode-context.js";
import type { FbTable } from "./flatbuffers.js";
import type { DecodeLimits, FileHeader } from "./header.js";
import { encodeObjectId } from "./object-id.js";

/** Where a virtual chunk's target must still be as it was. */
export type VirtualChecksum =
  | {
      /** The target's ETag: the target must still have it. */
      etag: string;
    }
  | {
      /** Seconds since the epoch: the target must not have changed after it. */
      lastModified: number;
    };

/** Where one chunk's bytes are. */
export type ChunkPayload =
  | {
      /** Held in the manifest. */
      kind: "inline";
      /** The chunk's bytes. */
      bytes: Uint8Array;
    }
  | {
      /** In a chunk file of the repository. */
      kind: "native";
      /** The chunk file's id (its key is `chunks/<id>`). */
      chunkId: string;
      /** Where the chunk starts in the file. */
      offset: number;
      /** The chunk's length in bytes. */
      length: number;
    }
  | {
      /** In a file outside the repository. */
      kind: "virtual";
      /** The target's absolute URL. */
      location: string;
      /** Where the chunk starts in the target. */
      offset: number;
      /** The chunk's length in bytes. */
      length: number;
      /** What the target must still be, when the reference recorded it. */
      checksum: VirtualChecksum | undefined;
    };

/** The chunk references of one array in one manifest, keyed by `index.join(",")`. */
export type ArrayChunkRefs = Map<string, ChunkPayload>;

/** A manifest file: chunk references per array node id. */
export interface Manifest {
  /** The file's header. */
  header: FileHeader;
  /** Its id (base 32). */
  id: string;
  /** Per array node id (base 32), its chunk references. */
  arrays: Map<string, ArrayChunkRefs>;
}

/** Decodes a manifest file. @throws IcechunkFormatError */
export async function decodeManifest(
  file: string,
  bytes: Uint8Array,
  limits: DecodeLimits,
): Promise<Manifest> {
  const { header, buf, root } = await readRootTable(file, bytes, "manifest", limits, "Manifest");
  const arrays = new Map<string, ArrayChunkRefs>();
  const locations = locationDecoder(file, root);
  for (const array of root.requiredTables(1, "arrays")) {
    const nodeId = idOf(array.struct(0, 8, "node_id"), buf, "ArrayManifest.node_id");
    const refs: ArrayChunkRefs = new Map();
    for (const ref of array.requiredTables(1, "refs")) {
      const index = ref.u32s(0, "index") ?? buf.fail("ChunkRef.index is missing");
      const payload = readChunkRef(ref, locations);
      refs.set(index.join(","), payload instanceof Promise ? await payload : payload);
    }
    arrays.set(nodeId, refs);
  }
  return { header, id: idOf(root.struct(0, 12, "id"), buf, "Manifest.id"), arrays };
}

/** A chunk reference; a promise only for a virtual one whose location is compressed. */
function readChunkRef(
  ref: FbTable,
  locations: LocationDecoder,
): ChunkPayload | Promise<ChunkPayload> {
  const inline = ref.bytes(1, "inline");
  if (inline !== undefined) return { kind: "inline", bytes: inline };
  const offset = ref.u64(2, "offset");
  const length = ref.u64(3, "length");
  const chunkId = ref.struct(4, 12, "chunk_id");
  if (chunkId !== undefined)
    return { kind: "native", chunkId: encodeObjectId(chunkId), offset, length };
  const location = ref.string(5, "location");
  const compressed = location === undefined ? ref.bytes(8, "compressed_location") : undefined;
  if (location === undefined && compressed === undefined)
    ref.buf.fail("a ChunkRef is neither inline, native nor virtual");
  const etag = ref.string(6, "checksum_etag");
  const lastModified = ref.u32(7, "checksum_last_modified");
  const checksum: VirtualChecksum | undefined =
    etag !== undefined ? { etag } : lastModified !== 0 ? { lastModified } : undefined;
  const virtual = (url: string): ChunkPayload => ({
    kind: "virtual",
    location: url,
    offset,
    length,
    checksum,
  });
  return location !== undefined
    ? virtual(location)
    : locations(compressed as Uint8Array).then(virtual);
}

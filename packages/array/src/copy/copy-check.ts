import { afterLoading } from "@z/codecs";
import type { ArrayMetadata } from "@z/metadata";
import { joinKey } from "@z/store-core";
import { type ArrayOptions, buildArrayMetadata } from "../create/array-metadata-builder.js";
import { ZarrArray } from "../nodes/array.js";
import { readNodeMetadata } from "../nodes/metadata-io.js";
import { arrayMetadataDocuments } from "../nodes/node-documents.js";
import { sameStoredLayout } from "./copy-elements.js";
import { storedLayoutOf } from "./copy-layout.js";

// Checks of an array's copy made before anything is written: its metadata as readers will
// parse it, and encoders that can encode.

/**
 * The metadata as readers parse it from the documents written for `metadata`: the copy is
 * written through it, so what the writer leaves out (a v2 object array's null fill value) is
 * what readers fill in, and metadata no reader can open is refused before anything is written.
 */
export async function readBackArrayMetadata(
  metadata: ArrayMetadata,
  path: string,
): Promise<ArrayMetadata> {
  const documents = new Map(
    arrayMetadataDocuments(metadata).map(([key, bytes]) => [joinKey(path, key), bytes]),
  );
  const store = { get: async (key: string) => documents.get(key) };
  const node = await readNodeMetadata(store, path, { kind: "array", consolidated: false });
  return (node as { metadata: ArrayMetadata }).metadata;
}

/**
 * The metadata of `source`'s copy as readers will parse it (see {@link readBackArrayMetadata}),
 * checked the way the copy uses it: every codec is known, and when the copy re-encodes chunks
 * (its layout differs from the source's), its compressors can encode (some codecs, bz2, can be
 * read but not written).
 * @throws MetadataError (and subclasses), UnknownCodecError, CodecConfigError, the errors of
 *   an encoder that cannot encode
 */
export async function checkedCopyMetadata(
  source: ZarrArray,
  metadata: ArrayMetadata,
  path = source.path,
): Promise<ArrayMetadata> {
  const read = await readBackArrayMetadata(metadata, path);
  // Building the array object builds its codec pipelines (loading the codecs a conversion
  // brings in first); the object does no I/O.
  const copy = await afterLoading(() => new ZarrArray(source.store, path, read));
  if (!sameStoredLayout(source.metadata, read)) {
    for (const pipeline of storedLayoutOf(copy).pipelines)
      for (const codec of pipeline.bytesToBytes) await codec.encode(new Uint8Array(16));
  }
  return read;
}

/**
 * Builds the metadata of a copy of `source` from its creation options and checks it (see
 * {@link checkedCopyMetadata}), without writing: lets a caller refuse options before it opens
 * the destination.
 * @returns the metadata as readers will parse it
 * @throws what `createArray` throws for the options; what {@link checkedCopyMetadata} throws
 */
export async function checkCopyMetadata(
  source: ZarrArray,
  options: ArrayOptions,
  path = source.path,
): Promise<ArrayMetadata> {
  return checkedCopyMetadata(source, buildArrayMetadata(options), path);
}

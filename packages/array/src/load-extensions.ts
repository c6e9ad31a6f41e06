// Data types beyond the plain numeric ones and codecs beyond bytes/transpose/crc32c load on
// first use (so a page downloads only what its arrays need). Metadata parsing and codec
// building stay synchronous; these helpers load what a document or a build needs first.
import { CodecNotLoadedError, loadCodecsFor } from "@z/codecs";
import { DataTypeNotLoadedError, type JsonValue, loadDataTypesFor } from "@z/metadata";

/**
 * Loads the data types and codecs a metadata document names (a `zarr.json`, `.zarray` or
 * consolidated document), so that parsing it and building its arrays' codecs need no await.
 */
export async function loadExtensionsFor(doc: JsonValue): Promise<void> {
  await Promise.all([loadDataTypesFor(doc), loadCodecsFor(doc)]);
}

/**
 * Runs a synchronous build (metadata from user options, an array and its codec pipeline) and,
 * while it fails for a data type or codec that loads on first use, loads it and runs it again.
 * Each load makes its names resolve (or be plainly unknown), so this ends; the bound is a
 * safeguard against a loader that registers nothing.
 */
export async function afterLoading<T>(build: () => T): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return build();
    } catch (error) {
      const notLoaded =
        error instanceof DataTypeNotLoadedError || error instanceof CodecNotLoadedError;
      if (!notLoaded || attempt >= 64) throw error;
      await error.load();
    }
  }
}

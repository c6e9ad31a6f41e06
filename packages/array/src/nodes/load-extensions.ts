// Data types beyond the plain numeric ones and codecs beyond bytes load on first use (so a page
// downloads only what its arrays need). Metadata parsing and codec building stay synchronous:
// what a document names loads before it is parsed (here), and what it only implies (the
// transpose of v2 F order, say) loads when the build asks for it (afterLoading, @z/codecs).
import { loadCodecsFor } from "@z/codecs";
import { type JsonValue, loadDataTypesFor } from "@z/metadata";

/**
 * Loads the data types and codecs a metadata document names (a `zarr.json`, `.zarray` or
 * consolidated document), so that parsing it and building its arrays' codecs need no await.
 */
export async function loadExtensionsFor(doc: JsonValue): Promise<void> {
  await Promise.all([loadDataTypesFor(doc), loadCodecsFor(doc)]);
}

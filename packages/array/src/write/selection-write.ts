import type { Indexer } from "@z/indexing";
import type { ArrayMetadata } from "@z/metadata";
import { throwIfAborted } from "@z/store-core";
import type { ChunkAccess } from "../io/chunk-access.js";
import { progressReporter, type SelectionOptions } from "../io/selection-io.js";
import { resolveValue, type SetValue } from "./values.js";

/**
 * Writes a value into a selection: a scalar goes to every selected element, an n-d value must
 * have the selection's shape. The value is resolved and checked in full before the first chunk
 * is written, so one that does not fit (a ValueTypeError or ValueShapeError) leaves the store
 * unchanged.
 */
export async function writeSelection(
  access: ChunkAccess,
  metadata: ArrayMetadata,
  indexer: Indexer,
  value: SetValue,
  options: SelectionOptions = {},
): Promise<void> {
  const source = resolveValue(value, indexer.shape, metadata.dataType);
  const tick = progressReporter(options, indexer.partCount());
  throwIfAborted(options.signal);
  await access.writeParts(indexer.parts(), source, options, tick);
}

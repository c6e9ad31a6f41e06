import { product } from "@z/ndarray";
import type { ChunkGrid } from "./chunk-grid.js";
import type { DataType } from "./dtype/types.js";
import type { NamedConfig } from "./extension.js";
import type { JsonValue } from "./json.js";
import { isJsonObject } from "./json-object.js";
import { checkLimit } from "./limit-check.js";

/** Bytes counted per element of a variable-length type (a reference per element in memory). */
const VARIABLE_ELEMENT_BYTES = 8;

function innerChunkShape(codecs: readonly (NamedConfig | JsonValue)[]): number[] | undefined {
  for (const codec of codecs) {
    const name = isJsonObject(codec) ? codec.name : undefined;
    const config = isJsonObject(codec) ? codec.configuration : undefined;
    if (name !== "sharding_indexed" || !isJsonObject(config)) continue;
    const shape = config.chunk_shape;
    if (!Array.isArray(shape) || !shape.every((n) => typeof n === "number")) return undefined;
    const nested = Array.isArray(config.codecs) ? innerChunkShape(config.codecs) : undefined;
    return nested ?? (shape as number[]);
  }
  return undefined;
}

/**
 * The shape of the unit that is decoded at once: the (largest) chunk, or for a sharded array the
 * innermost chunk shape of its `sharding_indexed` codec (shards are read piece by piece).
 */
export function decodedChunkShape(
  chunkGrid: ChunkGrid,
  codecs: readonly NamedConfig[],
): readonly number[] {
  return innerChunkShape(codecs) ?? chunkGrid.maxChunkShape;
}

/**
 * Checks an array's element and chunk sizes against {@link metadataLimits} before anything is
 * allocated for it: the element size (`maxItemSize`) and the decoded size of one chunk, or of
 * one inner chunk of a shard (`maxChunkBytes`).
 * @param where names the document, e.g. `/a/zarr.json`
 * @throws MetadataLimitError naming the size and the limit
 */
export function checkArrayLimits(
  meta: { dataType: DataType; chunkGrid: ChunkGrid; codecs: readonly NamedConfig[] },
  where: string,
): void {
  const { itemSize, name } = meta.dataType;
  checkLimit("maxItemSize", itemSize, `${where}: the element size of ${name}`);
  const shape = decodedChunkShape(meta.chunkGrid, meta.codecs);
  const bytes = product(shape) * (itemSize > 0 ? itemSize : VARIABLE_ELEMENT_BYTES);
  checkLimit(
    "maxChunkBytes",
    bytes,
    `${where}: the decoded size of a chunk of shape [${shape.join(", ")}] of ${name}`,
  );
}

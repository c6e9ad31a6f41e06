import { type JsonObject, ZarrArray, type ZarrGroup } from "@z/zarr";
import { dtypeJson, fillValueJson } from "./json-values.js";

/** The fields `info --json` and `tree --json` print for an array (see the CLI README). */
export interface ArrayJson {
  /** "array". */
  node_type: "array";
  /** 2 or 3. */
  zarr_format: 2 | 3;
  /** The node path, starting with `/`. */
  path: string;
  /** The shape. */
  shape: number[];
  /** The chunk shape (the inner chunks of a sharded array; the largest chunk of a `rectilinear` grid). */
  chunks: number[];
  /** The chunk grid's metadata, for grids other than `regular`. */
  chunk_grid?: JsonObject;
  /** The shard shape of a sharded array, else null. */
  shards: number[] | null;
  /** The v3 data_type, or the v2 type string (as `zarr get --json` prints it). */
  dtype: unknown;
  /** The fill value, encoded like `zarr get --json` values. */
  fill_value: unknown;
}

/** The fields `info --json` and `tree --json` print for a group. */
export interface GroupJson {
  /** "group". */
  node_type: "group";
  /** 2 or 3. */
  zarr_format: 2 | 3;
  /** The node path, starting with `/`. */
  path: string;
}

/** The short description of an array shared by `info --json` and `tree --json`. */
export function arrayJson(array: ZarrArray): ArrayJson {
  const info = array.info;
  return {
    node_type: "array",
    zarr_format: array.zarrFormat,
    path: `/${array.path}`,
    shape: [...array.shape],
    chunks: [...info.chunks],
    ...(info.chunkGrid ? { chunk_grid: info.chunkGrid } : {}),
    shards: info.shards ? [...info.shards] : null,
    dtype: dtypeJson(array),
    fill_value: fillValueJson(array),
  };
}

/** The short description of a group shared by `info --json` and `tree --json`. */
export function groupJson(group: ZarrGroup): GroupJson {
  return { node_type: "group", zarr_format: group.zarrFormat, path: `/${group.path}` };
}

/** The short description of either kind of node. */
export function nodeJson(node: ZarrArray | ZarrGroup): ArrayJson | GroupJson {
  return node instanceof ZarrArray ? arrayJson(node) : groupJson(node);
}

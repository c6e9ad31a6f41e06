import type { JsonObject } from "@z/metadata";
import { NotFoundError, type StoreLike } from "@z/store-core";
import type { ChunkCache } from "../cache/chunk-cache.js";
import type { ArrayOptions } from "../create/array-metadata-builder.js";
import type { ContainerOf } from "../create/container-types.js";
import { DataTypeMismatchError } from "../create/data-type-check.js";
import { isDataTypeNamed } from "../create/data-type-named.js";
import { loadNodeCreation } from "../lazy-features.js";
import type { ZarrArray } from "./array.js";
import type { NodeMetadata } from "./node-documents.js";
import type { AccessMode } from "./open-mode.js";
import { arrayOf, openNode } from "./open-node.js";

// openArray and the options of the openers, apart from `open` and `openGroup` (nodes.ts): a
// bundler puts a file that the first load and a lazy feature both reach into the first load
// whole, so this file must not import the group code, or an app that only opens arrays would
// load groups, creation and consolidated metadata with it.

/** Options of `open`. */
export interface OpenOptions {
  /** The node's path in the store (default the root). */
  path?: string;
  /** Only open this kind of node. */
  kind?: "array" | "group";
  /** Only look for this format (default: v3, then v2); the format of a node created by `mode`. */
  zarrFormat?: 2 | 3;
  /**
   * As zarr-python's `mode` (see {@link AccessMode}): `"r"` opens read only (every write
   * through the node, and the nodes opened from it, fails with `ReadOnlyError`), `"r+"` opens
   * for writing, `"a"` opens or creates, `"w"` creates replacing whatever is there, `"w-"`
   * creates where nothing is. Without a mode, what exists is opened (read only when the store
   * cannot be written) and nothing is created. `open` and `openGroup` create a group;
   * `openArray` creates an array from the creation options given with it.
   */
  mode?: AccessMode;
  /** The attributes of a group that `mode` creates (ignored when the group exists). */
  attributes?: JsonObject;
  /**
   * Consolidated metadata (v3 inline `consolidated_metadata`, v2 `.zmetadata`): by default a
   * group uses it when present, so listing and opening its whole subtree needs no further
   * reads; `false` ignores it (also for the nodes opened through the group); `true` requires
   * it. Opening a v3 group costs one read either way; a consolidated v2 group costs one read
   * with `zarrFormat: 2`, two without (the `zarr.json` probe first).
   */
  consolidated?: boolean;
  /** Abort the metadata reads. */
  signal?: AbortSignal;
  /**
   * A cache of decoded chunks for the arrays opened (by `open` and `openGroup`, the arrays
   * opened through the group too): see {@link ChunkCache}. Default: none.
   */
  cache?: ChunkCache;
}

/** Options of {@link openArray}. */
export interface OpenArrayOptions
  extends Omit<OpenOptions, "kind" | "consolidated" | "attributes">,
    Partial<Omit<ArrayOptions, "dtype" | "zarrFormat">> {
  /**
   * The data type the array must have (v3 name such as `"float32"`, or a v2 typestr such as
   * `"<f4"`); the result's type is narrowed to it. Also the data type of an array that `mode`
   * creates.
   */
  dtype?: ArrayOptions["dtype"];
}

/** Options of {@link openGroup}. */
export type OpenGroupOptions = Omit<OpenOptions, "kind">;

/**
 * Opens the array at a path. With `dtype`, checks the array's data type and narrows the
 * result's type (`get` then returns a Float32Array for `"float32"`). With `mode` `"a"`, `"w"`
 * or `"w-"`, the array is created from the creation options given (`shape`, `dtype`,
 * `chunks`, ..., as `createArray` takes them) when the mode says so.
 *
 * @example
 * ```ts
 * const arr = await openArray("data.zarr", { path: "temperature", dtype: "float32" });
 * const { data } = await arr.get([0, null, null]); // data: Float32Array
 * const log = await openArray(store, { path: "log", mode: "a", shape: [0], dtype: "int32" });
 * ```
 * @throws NotFoundError when there is no array there (and the mode creates none);
 *   DataTypeMismatchError when it has another data type than `dtype`; ReadOnlyError for a mode
 *   that writes on a store that cannot be written
 * @category Open and create
 */
export async function openArray<D extends string>(
  store: StoreLike | string,
  options: OpenArrayOptions & { dtype: D },
): Promise<ZarrArray<ContainerOf<D>>>;
export async function openArray(
  store: StoreLike | string,
  options?: OpenArrayOptions,
): Promise<ZarrArray>;
export async function openArray(
  store: StoreLike | string,
  options: OpenArrayOptions = {},
): Promise<ZarrArray> {
  const { dtype, path, zarrFormat, mode, signal, cache, ...creation } = options;
  const open: OpenOptions = { path, zarrFormat, mode, signal, kind: "array" };
  const array = (await openNode(
    store,
    open,
    async (s, at) => {
      if (creation.shape === undefined || dtype === undefined) {
        throw new NotFoundError(
          `/${at}`,
          "array",
          `mode ${JSON.stringify(mode)} creates it only from a shape and a dtype`,
        );
      }
      const spec = {
        ...creation,
        kind: "array" as const,
        shape: creation.shape,
        dtype,
        zarrFormat,
      };
      const { createArrayWithMode } = await loadNodeCreation();
      return createArrayWithMode(s, at, spec, { mode, signal, cache });
    },
    (s, at, node) => arrayOf(s, at, node as NodeMetadata & { kind: "array" }, cache),
  )) as ZarrArray;
  if (typeof dtype === "string" && !isDataTypeNamed(array.dataType, dtype))
    throw new DataTypeMismatchError(array.path, dtype, array.dtype);
  return array;
}

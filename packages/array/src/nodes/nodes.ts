import type { StoreLike } from "@z/store-core";
import type { ContainerOf } from "../create/container-types.js";
import { loadNodeCreation } from "../lazy-features.js";
import type { ZarrArray } from "./array.js";
import { nodeFromMetadata, type ZarrGroup } from "./group.js";
import {
  type OpenArrayOptions,
  type OpenGroupOptions,
  type OpenOptions,
  openArray,
} from "./open-array.js";
import { arrayOf, openNode } from "./open-node.js";

/**
 * Opens the array or group at a path (a `Map` works as a store too). With `kind`, the result
 * has that kind's type; with `mode`, the node may be created (see {@link OpenOptions.mode}).
 * @throws NotFoundError when there is no node (or not of the requested kind, or no
 *   consolidated metadata with `consolidated: true`); MetadataError for malformed metadata
 *   (consolidated metadata included); UnknownCodecError / UnknownDataTypeError for
 *   unsupported ones; ReadOnlyError for a mode that writes on a store that cannot be written
 * @example
 * ```ts
 * const node = await open("data.zarr", { path: "temperature" });
 * if (node instanceof ZarrArray) console.log(node.shape);
 * const arr = await open(store, { kind: "array", mode: "r" }); // arr: ZarrArray
 * ```
 * @category Open and create
 */
export async function open<D extends string>(
  store: StoreLike | string,
  options: OpenArrayOptions & { kind: "array"; dtype: D },
): Promise<ZarrArray<ContainerOf<D>>>;
export async function open(
  store: StoreLike | string,
  options: OpenArrayOptions & { kind: "array" },
): Promise<ZarrArray>;
export async function open(
  store: StoreLike | string,
  options: OpenGroupOptions & { kind: "group" },
): Promise<ZarrGroup>;
export async function open(
  store: StoreLike | string,
  options?: OpenOptions,
): Promise<ZarrArray | ZarrGroup>;
export async function open(
  store: StoreLike | string,
  options: OpenOptions | (OpenArrayOptions & { kind: "array" }) = {},
): Promise<ZarrArray | ZarrGroup> {
  if (options.kind === "array") {
    const { kind, consolidated, ...rest } = options as OpenOptions;
    return openArray(store, rest);
  }
  const useConsolidated = options.consolidated !== false;
  return openNode(
    store,
    options as OpenOptions,
    async (s, path) => {
      const { zarrFormat, attributes, mode, signal, cache } = options as OpenOptions;
      const { createGroupWithMode } = await loadNodeCreation();
      const spec = { kind: "group" as const, zarrFormat, attributes };
      return createGroupWithMode(s, path, spec, { mode, signal, cache });
    },
    (s, path, node) =>
      node.kind === "array"
        ? arrayOf(s, path, node, options.cache)
        : nodeFromMetadata(s, path, node, { useConsolidated, cache: options.cache }),
  );
}

/**
 * Opens the group at a path, using its consolidated metadata when present (see
 * {@link OpenOptions.consolidated}); with `mode` `"a"`, `"w"` or `"w-"`, creates it when the
 * mode says so (with `attributes`).
 * @throws NotFoundError when there is no group there (and the mode creates none)
 * @example
 * ```ts
 * const root = await openGroup("https://example.org/data.zarr");
 * console.log(await root.tree());
 * const out = await openGroup("out.zarr", { mode: "w" }); // a new, empty group
 * ```
 * @category Open and create
 */
export async function openGroup(
  store: StoreLike | string,
  options: OpenGroupOptions = {},
): Promise<ZarrGroup> {
  return open(store, { ...options, kind: "group" });
}

import { afterLoading } from "@z/codecs";
import { NotFoundError, normalizePath, type Readable, type StoreLike } from "@z/store-core";
import type { ContainerOf } from "../create/container-types.js";
import { DataTypeMismatchError } from "../create/data-type-check.js";
import { isDataTypeNamed } from "../create/data-type-named.js";
import { logNode, nodeDetails } from "../logging/node-logging.js";
import { enterStore } from "../logging/store-logging-scope.js";
import { ZarrArray } from "./array.js";
import { nodeFromMetadata, type ZarrGroup } from "./group.js";
import { readNodeMetadata } from "./metadata-io.js";
import type { NodeMetadata } from "./node-documents.js";

/** Options of `open`. */
export interface OpenOptions {
  /** The node's path in the store (default the root). */
  path?: string;
  /** Only open this kind of node. */
  kind?: "array" | "group";
  /** Only look for this format (default: v3, then v2). */
  zarrFormat?: 2 | 3;
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
}

/**
 * Opens the array or group at a path (a `Map` works as a store too).
 * @throws NotFoundError when there is no node (or not of the requested kind, or no
 *   consolidated metadata with `consolidated: true`); MetadataError for malformed metadata
 *   (consolidated metadata included); UnknownCodecError / UnknownDataTypeError for
 *   unsupported ones
 * @example
 * ```ts
 * const node = await open("data.zarr", { path: "temperature" });
 * if (node instanceof ZarrArray) console.log(node.shape);
 * ```
 * @category Open and create
 */
export async function open(
  store: StoreLike | string,
  options: OpenOptions = {},
): Promise<ZarrArray | ZarrGroup> {
  const { s, path, node } = await readNodeOfKind(store, options);
  const opened = await nodeFromMetadata(s, path, node, {
    useConsolidated: options.consolidated !== false,
  });
  logNode("opened", node.kind, path, () => nodeDetails(node));
  return opened;
}

/**
 * The metadata of the node `open` opens, checked against `options.kind`. openArray builds its
 * array from it without `nodeFromMetadata`, so that an app that only opens arrays does not
 * load the group code (groups, creation, consolidated metadata).
 */
async function readNodeOfKind(
  store: StoreLike | string,
  options: OpenOptions,
): Promise<{ s: Readable; path: string; node: NodeMetadata }> {
  const s = await enterStore(store);
  const path = normalizePath(options.path);
  const node = await readNodeMetadata(s, path, options);
  if (!node) {
    throw new NotFoundError(
      `/${path}`,
      options.kind ?? "array or group",
      "no Zarr metadata (zarr.json, .zarray or .zgroup) there",
    );
  }
  if (options.kind && node.kind !== options.kind) {
    throw new NotFoundError(
      `/${path}`,
      options.kind,
      `it is a ${node.kind}; open it with open${node.kind === "array" ? "Array" : "Group"}()`,
    );
  }
  return { s, path, node };
}

/** Options of {@link openArray}. */
export interface OpenArrayOptions extends Omit<OpenOptions, "kind" | "consolidated"> {
  /**
   * The data type the array must have (v3 name such as `"float32"`, or a v2 typestr such as
   * `"<f4"`); the result's type is narrowed to it.
   */
  dtype?: string;
}

/**
 * Opens the array at a path. With `dtype`, checks the array's data type and narrows the
 * result's type (`get` then returns a Float32Array for `"float32"`).
 *
 * @example
 * ```ts
 * const arr = await openArray("data.zarr", { path: "temperature", dtype: "float32" });
 * const { data } = await arr.get([0, null, null]); // data: Float32Array
 * ```
 * @throws NotFoundError when there is no array there; DataTypeMismatchError when it has
 *   another data type than `dtype`
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
  const { dtype, ...rest } = options;
  const { s: opened, path, node } = await readNodeOfKind(store, { ...rest, kind: "array" });
  // readNodeOfKind checked that it is an array.
  const { metadata } = node as Extract<NodeMetadata, { kind: "array" }>;
  const array = await afterLoading(() => new ZarrArray(opened, path, metadata));
  logNode("opened", node.kind, path, () => nodeDetails(node));
  if (dtype !== undefined && !isDataTypeNamed(array.dataType, dtype))
    throw new DataTypeMismatchError(array.path, dtype, array.dtype);
  return array;
}

/**
 * Opens the group at a path, using its consolidated metadata when present (see
 * {@link OpenOptions.consolidated}).
 * @throws NotFoundError when there is no group there
 * @example
 * ```ts
 * const root = await openGroup("https://example.org/data.zarr");
 * console.log(await root.tree());
 * ```
 * @category Open and create
 */
export async function openGroup(
  store: StoreLike | string,
  options: Omit<OpenOptions, "kind"> = {},
): Promise<ZarrGroup> {
  return (await open(store, { ...options, kind: "group" })) as ZarrGroup;
}

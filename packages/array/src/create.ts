import { type GroupMetadata, type JsonObject, validateNodeName } from "@z/metadata";
import {
  isWritable,
  normalizePath,
  prefixOf,
  type Readable,
  ReadOnlyError,
  type StoreLike,
  toStore,
  type Writable,
} from "@z/store-core";
import { ZarrArray } from "./array.js";
import type { ContainerOf } from "./container-types.js";
import { type ArrayOptions, buildArrayMetadata } from "./create-metadata.js";
import { ContainsArrayError, ContainsGroupError } from "./errors.js";
import { Group } from "./group.js";
import { arrayMetadataDocuments, groupMetadataDocuments, readNodeMetadata, writeDocuments } from "./metadata-io.js";

/** Options shared by node creation. */
export interface CreateNodeOptions {
  /** Where to create the node (default the root). Missing parent groups are created. */
  path?: string;
  /** Replace a node that exists there (its whole subtree is deleted first). */
  overwrite?: boolean;
  /** Abort the writes. */
  signal?: AbortSignal;
}

/** Options of `createGroup`. */
export interface GroupOptions extends CreateNodeOptions {
  /** 2 or 3 (default 3). */
  zarrFormat?: 2 | 3;
  /** User attributes. */
  attributes?: JsonObject;
}

function writable(store: Readable, path: string): Readable & Writable {
  if (!isWritable(store)) throw new ReadOnlyError(`/${path}`, "create a node at");
  return store;
}

/**
 * Checks that a node can be created at `path`: nothing there (or `overwrite`), and no array
 * among its ancestors. Creates the missing ancestor groups and clears the old node.
 */
async function prepareNodePath(
  store: Readable & Writable,
  path: string,
  zarrFormat: 2 | 3,
  options: CreateNodeOptions,
): Promise<void> {
  const segments = path === "" ? [] : path.split("/");
  segments.forEach(validateNodeName);
  const existing = await readNodeMetadata(store, path, { signal: options.signal });
  if (existing && !options.overwrite) {
    const hint = "pass overwrite: true to replace it";
    throw existing.kind === "array" ? new ContainsArrayError(path, hint) : new ContainsGroupError(path, hint);
  }
  const parents: string[] = [];
  for (let i = 0; i < segments.length; i++) parents.push(segments.slice(0, i).join("/"));
  const found = await Promise.all(parents.map((p) => readNodeMetadata(store, p, { signal: options.signal })));
  found.forEach((node, i) => {
    if (node?.kind === "array") {
      throw new ContainsArrayError(parents[i], `cannot create /${path} inside an array`);
    }
  });
  if (existing) await store.deletePrefix(prefixOf(path), { signal: options.signal });
  const missing = parents.filter((_, i) => found[i] === undefined);
  const group: GroupMetadata = { zarrFormat, attributes: {}, extraFields: {} };
  await Promise.all(missing.map((p) => writeDocuments(store, p, groupMetadataDocuments(group), options.signal)));
}

/**
 * Creates an array: validates the options (every codec must be known) before writing
 * anything, creates missing parent groups, writes the metadata.
 *
 * ```ts
 * const arr = await createArray(new Map(), { shape: [512, 512], chunks: [64, 64], dtype: "uint16" });
 * ```
 * @throws ContainsArrayError / ContainsGroupError when a node exists (without `overwrite`),
 *   MetadataError, UnknownCodecError, UnknownDataTypeError, ReadOnlyError
 */
export async function createArray<D extends string>(
  store: StoreLike,
  options: ArrayOptions & CreateNodeOptions & { dtype: D },
): Promise<ZarrArray<ContainerOf<D>>>;
export async function createArray(store: StoreLike, options: ArrayOptions & CreateNodeOptions): Promise<ZarrArray>;
export async function createArray(store: StoreLike, options: ArrayOptions & CreateNodeOptions): Promise<ZarrArray> {
  const s = toStore(store);
  const path = normalizePath(options.path);
  const w = writable(s, path);
  const metadata = buildArrayMetadata(options);
  // Building the array object builds its codec pipeline, so unknown codecs fail here, before
  // any write.
  const array = new ZarrArray(s, path, metadata);
  await prepareNodePath(w, path, metadata.zarrFormat, options);
  await writeDocuments(w, path, arrayMetadataDocuments(metadata), options.signal);
  return array;
}

/**
 * Creates a group (and any missing parent groups).
 * @throws ContainsArrayError / ContainsGroupError when a node exists (without `overwrite`)
 */
export async function createGroup(store: StoreLike, options: GroupOptions = {}): Promise<Group> {
  const s = toStore(store);
  const path = normalizePath(options.path);
  const w = writable(s, path);
  const metadata: GroupMetadata = {
    zarrFormat: options.zarrFormat ?? 3,
    attributes: options.attributes ?? {},
    extraFields: {},
  };
  await prepareNodePath(w, path, metadata.zarrFormat, options);
  await writeDocuments(w, path, groupMetadataDocuments(metadata), options.signal);
  return new Group(s, path, metadata);
}

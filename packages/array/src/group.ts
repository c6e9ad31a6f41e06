import type { GroupMetadata, JsonObject } from "@z/metadata";
import {
  isListable,
  isWritable,
  joinKey,
  type Listable,
  NotFoundError,
  prefixOf,
  type Readable,
  ReadOnlyError,
  UnsupportedOperationError,
} from "@z/store-core";
import { ZarrArray } from "./array.js";
import { createArray, createGroup } from "./create.js";
import type { ArrayOptions } from "./create-metadata.js";
import { groupMetadataDocuments, readNodeMetadata, writeDocuments } from "./metadata-io.js";
import { nodeFromMetadata } from "./nodes.js";

/**
 * A Zarr group: a node holding arrays and other groups, with attributes.
 *
 * ```ts
 * const root = await createGroup(store);
 * const temps = await root.createArray("temperature", { shape: [365], dtype: "float32" });
 * for (const [name, node] of await root.members()) console.log(name, node.toString());
 * ```
 */
export class Group {
  constructor(
    /** The store the group lives in. */
    readonly store: Readable,
    /** The group's path in the store (`""` for the root). */
    readonly path: string,
    /** The group's metadata. */
    readonly metadata: GroupMetadata,
  ) {}

  /** The group's name: the last segment of its path (`""` for the root). */
  get name(): string {
    return this.path.split("/").pop() ?? "";
  }
  /** 2 or 3. */
  get zarrFormat(): 2 | 3 {
    return this.metadata.zarrFormat;
  }
  /** The user attributes (a snapshot; change them with {@link Group.updateAttributes}). */
  get attrs(): JsonObject {
    return structuredClone(this.metadata.attributes);
  }

  /** The path of a child node. */
  childPath(name: string): string {
    return joinKey(this.path, name);
  }

  /**
   * The names of the direct children that have node metadata, sorted. Needs a store that can
   * list keys.
   * @throws UnsupportedOperationError when the store cannot list
   */
  async childNames(options: { signal?: AbortSignal } = {}): Promise<string[]> {
    if (!isListable(this.store)) {
      throw new UnsupportedOperationError(`Cannot list the members of /${this.path}: the store cannot list keys`);
    }
    const { prefixes } = await this.store.listDir(prefixOf(this.path));
    const metadataKeys = this.zarrFormat === 3 ? ["zarr.json"] : [".zarray", ".zgroup"];
    const names = await Promise.all(
      prefixes.map(async (prefix) => {
        const { keys } = await (this.store as Readable & Listable).listDir(prefix);
        const isNode = keys.some((key) => metadataKeys.includes(key.slice(prefix.length)));
        return isNode ? prefix.slice(prefixOf(this.path).length, -1) : undefined;
      }),
    );
    return names.filter((name) => name !== undefined).sort();
  }

  /**
   * The direct children, sorted by name, each opened. Needs a store that can list keys.
   * @throws UnsupportedOperationError when the store cannot list; the error of a child whose
   *   metadata cannot be read
   */
  async members(options: { signal?: AbortSignal } = {}): Promise<[string, ZarrArray | Group][]> {
    const names = await this.childNames(options);
    return Promise.all(names.map(async (name) => [name, await this.get(name, options)] as [string, ZarrArray | Group]));
  }

  /** The child arrays. */
  async arrays(): Promise<[string, ZarrArray][]> {
    return (await this.members()).filter((entry): entry is [string, ZarrArray] => entry[1] instanceof ZarrArray);
  }

  /** The child groups. */
  async groups(): Promise<[string, Group][]> {
    return (await this.members()).filter((entry): entry is [string, Group] => entry[1] instanceof Group);
  }

  /**
   * Opens a descendant by relative path (`"a"`, `"a/b"`).
   * @throws NotFoundError when there is no node there
   */
  async get(name: string, options: { signal?: AbortSignal } = {}): Promise<ZarrArray | Group> {
    const path = this.childPath(name);
    const node = await readNodeMetadata(this.store, path, { zarrFormat: this.zarrFormat, signal: options.signal });
    if (!node) throw new NotFoundError(`/${path}`, "array or group", `/${this.path} has no member ${JSON.stringify(name)}`);
    return nodeFromMetadata(this.store, path, node);
  }

  /** Creates an array under this group (same format as the group unless given). */
  async createArray(name: string, options: ArrayOptions & { overwrite?: boolean }): Promise<ZarrArray> {
    return createArray(this.store as never, { zarrFormat: this.zarrFormat, ...options, path: this.childPath(name) });
  }

  /** Creates a group under this group (same format as the group unless given). */
  async createGroup(name: string, options: { attributes?: JsonObject; overwrite?: boolean; zarrFormat?: 2 | 3 } = {}): Promise<Group> {
    return createGroup(this.store as never, { zarrFormat: this.zarrFormat, ...options, path: this.childPath(name) });
  }

  /** Merges `attributes` into the group's attributes (or replaces them) and writes the metadata. */
  async updateAttributes(attributes: JsonObject, options: { replace?: boolean } = {}): Promise<Group> {
    if (!isWritable(this.store)) throw new ReadOnlyError(`/${this.path}`, "update attributes of");
    const merged = options.replace ? attributes : { ...this.metadata.attributes, ...attributes };
    const metadata = { ...this.metadata, attributes: merged };
    const docs = groupMetadataDocuments(metadata);
    if (metadata.zarrFormat === 2 && !docs.some(([key]) => key === ".zattrs")) {
      docs.push([".zattrs", new TextEncoder().encode("{}")]);
    }
    await writeDocuments(this.store, this.path, docs);
    return new Group(this.store, this.path, metadata);
  }

  /** A short human-readable description. */
  toString(): string {
    return `<Group v${this.zarrFormat} /${this.path}>`;
  }
}

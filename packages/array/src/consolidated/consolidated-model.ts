import { formatValue } from "@z/errors";
import {
  arrayMetadataToV3Json,
  groupMetadataToV3Json,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  METADATA_KEYS,
  MetadataError,
} from "@z/metadata";
import { InvalidKeyError, joinKey, normalizePath, validateKey } from "@z/store-core";
import { type NodeMetadata, sortKeysDeep, zarrayDocument } from "../nodes/node-documents.js";
import { parseV3Node } from "../nodes/node-parse.js";
import { parseV2Node } from "../nodes/node-parse-v2.js";

// The consolidated metadata of a group as a value: node path -> node metadata, read from and
// written as either format's document (v3 inline `consolidated_metadata`, v2 `.zmetadata`).
// No I/O here; metadata-io.ts reads it, update-consolidated.ts writes changes to it and
// consolidate-metadata.ts builds it from a listing.

/** The v2 documents of one node in `.zmetadata`. */
export interface V2ConsolidatedEntry {
  /** `.zarray`, for an array. */
  zarray?: JsonObject;
  /** `.zgroup`, for a group. */
  zgroup?: JsonObject;
  /** `.zattrs`, when the node has attributes. */
  zattrs?: JsonObject;
}

interface State {
  format: 2 | 3;
  /** Where the documents came from, for error messages. */
  where: string;
  /** v3: node path -> its `zarr.json` document. */
  v3: Map<string, JsonObject>;
  /** v2: node path -> its documents; `""` is the group holding the consolidated metadata. */
  v2: Map<string, V2ConsolidatedEntry>;
  /** Parent path -> sorted child names, built on first use. */
  children?: Map<string, string[]>;
  /** Parsed node metadata by path, filled on first use. */
  parsed: Map<string, NodeMetadata>;
}

/** What zarr-python writes for a group inside consolidated metadata: its children are listed flat in the root. */
const EMPTY_INLINE: JsonObject = { kind: "inline", must_understand: false, metadata: {} };

const V2_DOCUMENTS = [
  [METADATA_KEYS.zarray, "zarray"],
  [METADATA_KEYS.zgroup, "zgroup"],
  [METADATA_KEYS.zattrs, "zattrs"],
] as const;

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkPath(path: string, where: string): string {
  try {
    return validateKey(path);
  } catch (error) {
    const reason = error instanceof InvalidKeyError ? error.message : String(error);
    throw new MetadataError(`${where}: invalid node path ${JSON.stringify(path)} (${reason})`);
  }
}

function isUnder(path: string, root: string): boolean {
  return root === "" || path === root || path.startsWith(`${root}/`);
}

function relativeTo(path: string, root: string): string {
  return root === "" ? path : path === root ? "" : path.slice(root.length + 1);
}

/**
 * The consolidated metadata of a group: the metadata documents of every node below it, as
 * zarr-python writes them (v3: inline `consolidated_metadata` in the group's `zarr.json`; v2:
 * the `.zmetadata` document), so a whole hierarchy is listed from one read.
 *
 * It is a snapshot: nodes created, resized or given new attributes afterwards by another
 * writer are missing or stale until {@link consolidateMetadata} runs again (as in
 * zarr-python). `createArray`, `createGroup` and `createHierarchy` keep it up to date for the
 * nodes they create (see their docs).
 *
 * Entries are parsed on first use, so one malformed node only fails when it is opened; the
 * structure (format, paths, node kinds) is checked when the consolidated metadata is read.
 */
export class ConsolidatedMetadata {
  private constructor(
    private readonly state: State,
    private readonly prefix: string,
  ) {}

  /**
   * Reads v3 `consolidated_metadata` (the field's value). `undefined` for `null` or a missing
   * field, and for an unknown `kind` marked `must_understand: false`.
   * @throws MetadataError for malformed consolidated metadata, or an unknown kind readers must understand
   */
  static fromV3(json: JsonValue | undefined, where: string): ConsolidatedMetadata | undefined {
    if (json === undefined || json === null) return undefined;
    const at = `${where} consolidated_metadata`;
    if (!isJsonObject(json)) throw new MetadataError(`${at} must be an object or null`);
    if (json.kind !== "inline") {
      if (json.must_understand === false) return undefined;
      throw new MetadataError(
        `${at}: unsupported kind ${formatValue(json.kind)} (only "inline" is known); open with consolidated: false to ignore it`,
      );
    }
    if (json.must_understand !== undefined && typeof json.must_understand !== "boolean") {
      throw new MetadataError(`${at}: "must_understand" must be a boolean`);
    }
    if (!isJsonObject(json.metadata))
      throw new MetadataError(`${at}: "metadata" must be an object of node documents`);
    const v3 = new Map<string, JsonObject>();
    collectV3(json.metadata, "", v3, at);
    return ConsolidatedMetadata.create({ format: 3, where, v3, v2: new Map(), parsed: new Map() });
  }

  /**
   * The consolidated metadata listing v3 `zarr.json` documents (paths relative to the group),
   * as zarr-python writes it: paths sorted, every group marked as having its children listed
   * flat in the root.
   * @throws MetadataError for a malformed document or path
   */
  static ofV3Documents(
    docs: Iterable<readonly [string, JsonObject]>,
    where: string,
  ): ConsolidatedMetadata {
    const metadata: JsonObject = {};
    for (const [path, doc] of [...docs].sort(([a], [b]) => byCodeUnit(a, b))) {
      metadata[path] =
        doc.node_type === "group" ? { ...doc, consolidated_metadata: EMPTY_INLINE } : doc;
    }
    return ConsolidatedMetadata.fromV3(
      { kind: "inline", must_understand: false, metadata },
      where,
    ) as ConsolidatedMetadata;
  }

  /**
   * Reads a v2 `.zmetadata` document.
   * @throws MetadataError for a malformed document or an unsupported `zarr_consolidated_format`
   */
  static fromV2(json: JsonValue, where: string): ConsolidatedMetadata {
    if (!isJsonObject(json)) throw new MetadataError(`${where} must be a JSON object`);
    if (json.zarr_consolidated_format !== 1) {
      throw new MetadataError(
        `${where}: "zarr_consolidated_format" must be 1, got ${formatValue(json.zarr_consolidated_format ?? null)}`,
      );
    }
    if (!isJsonObject(json.metadata))
      throw new MetadataError(`${where}: "metadata" must be an object of documents`);
    const v2 = new Map<string, V2ConsolidatedEntry>();
    for (const [key, value] of Object.entries(json.metadata)) {
      const document = V2_DOCUMENTS.find(([name]) => key === name || key.endsWith(`/${name}`));
      // zarr-python 2 consolidates every key ending in one of these; anything else is not ours.
      if (!document) continue;
      const [name, field] = document;
      const path = key === name ? "" : checkPath(key.slice(0, -name.length - 1), where);
      if (!isJsonObject(value))
        throw new MetadataError(`${where}: metadata[${JSON.stringify(key)}] must be a JSON object`);
      const entry = v2.get(path) ?? {};
      entry[field] = value;
      v2.set(path, entry);
    }
    for (const [path, entry] of v2) {
      if (entry.zarray && entry.zgroup) {
        throw new MetadataError(
          `${where}: ${JSON.stringify(`/${path}`)} has both .zarray and .zgroup`,
        );
      }
    }
    return ConsolidatedMetadata.create({ format: 2, where, v3: new Map(), v2, parsed: new Map() });
  }

  private static create(state: State): ConsolidatedMetadata {
    const view = new ConsolidatedMetadata(state, "");
    for (const path of view.allPaths()) {
      for (let cut = path.lastIndexOf("/"); cut > 0; cut = path.lastIndexOf("/", cut - 1)) {
        if (view.kindAt(path.slice(0, cut)) === "array") {
          throw new MetadataError(
            `${state.where}: consolidated metadata lists /${path} inside the array /${path.slice(0, cut)}`,
          );
        }
      }
    }
    return view;
  }

  /** 2 or 3. */
  get zarrFormat(): 2 | 3 {
    return this.state.format;
  }

  /** True for the consolidated metadata a group holds itself; false for a view of a parent's. */
  get isRoot(): boolean {
    return this.prefix === "";
  }

  /** The path of this view's group relative to the group holding it (`""` for that group). */
  get pathInHolder(): string {
    return this.prefix;
  }

  /** Every node path in the whole state (not only this view), unsorted. */
  private allPaths(): string[] {
    if (this.state.format === 3) return [...this.state.v3.keys()];
    return [...this.state.v2]
      .filter(([path, e]) => path !== "" && (e.zarray || e.zgroup))
      .map(([path]) => path);
  }

  private kindAt(full: string): "array" | "group" | undefined {
    if (this.state.format === 3) {
      const doc = this.state.v3.get(full);
      return doc === undefined ? undefined : (doc.node_type as "array" | "group");
    }
    if (full === "") return undefined;
    const entry = this.state.v2.get(full);
    return entry?.zarray ? "array" : entry?.zgroup ? "group" : undefined;
  }

  private full(path: string): string {
    return joinKey(this.prefix, normalizePath(path));
  }

  /** The paths (relative to this group) of every node below it, sorted. */
  paths(): string[] {
    return this.allPaths()
      .filter((p) => p !== this.prefix && isUnder(p, this.prefix))
      .map((p) => relativeTo(p, this.prefix))
      .sort(byCodeUnit);
  }

  /** The number of nodes below this group. */
  get size(): number {
    return this.paths().length;
  }

  /** Whether a node at `path` (relative to this group) is listed, and its kind. */
  kind(path: string): "array" | "group" | undefined {
    const full = this.full(path);
    return full === this.prefix ? undefined : this.kindAt(full);
  }

  /** The names of the direct children of the group at `path` (default this one), sorted. */
  childNames(path = ""): string[] {
    if (!this.state.children) {
      const children = new Map<string, string[]>();
      for (const p of this.allPaths()) {
        const cut = p.lastIndexOf("/");
        const parent = cut < 0 ? "" : p.slice(0, cut);
        const list = children.get(parent) ?? [];
        list.push(p.slice(cut + 1));
        children.set(parent, list);
      }
      for (const list of children.values()) list.sort(byCodeUnit);
      this.state.children = children;
    }
    return [...(this.state.children.get(this.full(path)) ?? [])];
  }

  /**
   * The parsed metadata of the node at `path` (relative to this group), or undefined when it
   * is not listed. A group comes with the consolidated metadata of its own subtree.
   * @throws MetadataError when the node's documents are malformed
   */
  node(path: string): NodeMetadata | undefined {
    const full = this.full(path);
    const kind = full === this.prefix ? undefined : this.kindAt(full);
    if (kind === undefined) return undefined;
    let parsed = this.state.parsed.get(full);
    if (!parsed) {
      parsed = this.parse(full);
      this.state.parsed.set(full, parsed);
    }
    if (parsed.kind === "array") return parsed;
    return { ...parsed, consolidated: new ConsolidatedMetadata(this.state, full) };
  }

  private parse(full: string): NodeMetadata {
    const { where } = this.state;
    let node: NodeMetadata;
    if (this.state.format === 3) {
      node = parseV3Node(
        this.state.v3.get(full) as JsonObject,
        `${where} consolidated_metadata.metadata[${JSON.stringify(full)}]`,
      );
    } else {
      const e = this.state.v2.get(full) as V2ConsolidatedEntry;
      node = parseV2Node(
        e.zarray,
        e.zgroup,
        e.zattrs,
        (name) => `${where} metadata[${JSON.stringify(joinKey(full, name))}]`,
      );
    }
    // A group's own entry says its children are consolidated (listed flat in the root); its
    // metadata must not carry that marker, or rewriting the group would claim it has none.
    if (node.kind === "group")
      node.metadata = { ...node.metadata, consolidatedMetadata: undefined };
    return node;
  }

  /** The consolidated metadata of the group at `path` (relative to this one): a view, no copy. */
  subtree(path: string): ConsolidatedMetadata {
    return new ConsolidatedMetadata(this.state, this.full(path));
  }

  /** v2: the documents of the group holding this consolidated metadata (`.zgroup`, `.zattrs`). */
  selfV2(): V2ConsolidatedEntry | undefined {
    return this.state.format === 2 ? this.state.v2.get(this.prefix) : undefined;
  }

  /**
   * A copy with the subtrees at `remove` dropped and the nodes in `add` listed (paths
   * relative to this group; nodes of the other Zarr format are skipped). v2: adding `""`
   * replaces the group's own documents.
   */
  withChanges(changes: {
    remove?: readonly string[];
    add?: readonly (readonly [string, NodeMetadata])[];
  }): ConsolidatedMetadata {
    const removed = (changes.remove ?? []).map(normalizePath);
    const kept = (path: string) =>
      !removed.some((r) => isUnder(path, r) && (r !== "" || path !== ""));
    const state: State = {
      format: this.state.format,
      where: this.state.where,
      v3: new Map(),
      v2: new Map(),
      parsed: new Map(),
    };
    if (this.state.format === 3) {
      for (const [p, doc] of this.state.v3) {
        if (p !== this.prefix && isUnder(p, this.prefix) && kept(relativeTo(p, this.prefix)))
          state.v3.set(relativeTo(p, this.prefix), doc);
      }
    } else {
      for (const [p, entry] of this.state.v2) {
        if (isUnder(p, this.prefix) && kept(relativeTo(p, this.prefix)))
          state.v2.set(relativeTo(p, this.prefix), entry);
      }
    }
    for (const [path, node] of changes.add ?? []) {
      if (node.metadata.zarrFormat !== state.format) continue;
      const p = normalizePath(path);
      if (state.format === 3) {
        if (p !== "") state.v3.set(p, v3Entry(node));
      } else {
        state.v2.set(p, v2Entry(node));
      }
    }
    return ConsolidatedMetadata.create(state);
  }

  /**
   * The JSON this view is written as: v3, the value of `consolidated_metadata`; v2, the whole
   * `.zmetadata` document (keys sorted, as zarr-python writes it).
   */
  toJson(): JsonObject {
    if (this.state.format === 3) {
      const metadata: JsonObject = {};
      for (const path of this.paths())
        metadata[path] = this.state.v3.get(this.full(path)) as JsonObject;
      return { kind: "inline", must_understand: false, metadata };
    }
    const metadata: JsonObject = {};
    for (const [p, entry] of this.state.v2) {
      if (!isUnder(p, this.prefix)) continue;
      const rel = relativeTo(p, this.prefix);
      for (const [name, field] of V2_DOCUMENTS) {
        const doc = entry[field];
        if (doc) metadata[joinKey(rel, name)] = doc;
      }
    }
    return sortKeysDeep({ metadata, zarr_consolidated_format: 1 }) as JsonObject;
  }
}

/** Flattens v3 consolidated entries, merging nested (non-flat) groups' own entries too. */
function collectV3(
  metadata: JsonObject,
  base: string,
  out: Map<string, JsonObject>,
  where: string,
): void {
  for (const [key, doc] of Object.entries(metadata)) {
    const path = joinKey(base, checkPath(key, where));
    const at = `${where}.metadata[${JSON.stringify(key)}]`;
    if (!isJsonObject(doc)) throw new MetadataError(`${at} must be a JSON object`);
    if (doc.zarr_format !== 3)
      throw new MetadataError(
        `${at}: "zarr_format" must be 3, got ${formatValue(doc.zarr_format ?? null)}`,
      );
    if (doc.node_type !== "array" && doc.node_type !== "group") {
      throw new MetadataError(
        `${at}: "node_type" must be "array" or "group", got ${formatValue(doc.node_type ?? null)}`,
      );
    }
    if (!out.has(path)) out.set(path, doc);
    const nested = doc.consolidated_metadata;
    if (doc.node_type === "group" && isJsonObject(nested) && isJsonObject(nested.metadata)) {
      collectV3(nested.metadata, path, out, `${at} consolidated_metadata`);
    }
  }
}

function v3Entry(node: NodeMetadata): JsonObject {
  if (node.kind === "array") return arrayMetadataToV3Json(node.metadata);
  return {
    ...groupMetadataToV3Json({ ...node.metadata, consolidatedMetadata: undefined }),
    consolidated_metadata: EMPTY_INLINE,
  };
}

function v2Entry(node: NodeMetadata): V2ConsolidatedEntry {
  const attributes = node.metadata.attributes;
  const zattrs = Object.keys(attributes).length > 0 ? attributes : undefined;
  if (node.kind === "array") return { zarray: zarrayDocument(node.metadata), zattrs };
  return { zgroup: { zarr_format: 2 }, zattrs };
}

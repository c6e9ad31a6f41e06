import { afterLoading } from "@z/codecs";
import { locateError } from "@z/errors";
import { type JsonValue, METADATA_KEYS, parseJson } from "@z/metadata";
import { validateAttributes } from "@z/metadata/internal";
import { joinKey, NotFoundError, type Readable, type Writable } from "@z/store-core";
import { checkChoice } from "../create/option-checks.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { loadConsolidatedModel, loadV2Parser } from "../lazy-features.js";
import { loadExtensionsFor } from "./load-extensions.js";
import type { NodeMetadata } from "./node-documents.js";
import { parseV3Node } from "./node-parse.js";

/** Options of metadata reads. */
export interface ReadMetadataOptions {
  /** Only look for this format; by default v3 is tried first, then v2. */
  zarrFormat?: 2 | 3;
  /**
   * Consolidated metadata of a group: by default used when present; `false` ignores it;
   * `true` requires it (a group without it is a NotFoundError).
   */
  consolidated?: boolean;
  /**
   * Whether to look for a v2 `.zmetadata` (default true). It costs a request when absent, so
   * lookups of children below a group that has none skip it.
   */
  probeV2Consolidated?: boolean;
  /** The kind of node expected: arrays never look for consolidated metadata. */
  kind?: "array" | "group";
  /** Abort the reads. */
  signal?: AbortSignal;
}

/**
 * Reads and parses a JSON document; `undefined` when the key is missing. Its errors carry the
 * key, and the node's `path` when given.
 */
export async function readJson(
  store: Readable,
  key: string,
  signal?: AbortSignal,
  path?: string,
): Promise<JsonValue | undefined> {
  const bytes = await store.get(key, { signal });
  if (bytes === undefined) return undefined;
  const doc = parsedAt(key, path, () => parseJson(bytes, `/${key}`));
  // Parsing the document and building its arrays' codecs are synchronous from here.
  await loadExtensionsFor(doc);
  return doc;
}

/**
 * Runs the parse of the document at `key` (of the node at `path`): its errors carry both, as
 * typed fields, whichever format and document (`zarr.json`, `.zarray`, `.zgroup`, `.zattrs`,
 * `.zmetadata`) they are about.
 */
function parsedAt<T>(key: string, path: string | undefined, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw locateError(error, "", { key, path });
  }
}

/** {@link parsedAt}, loading first what the parse turns out to need (see `afterLoading`). */
function parsedAfterLoading<T>(key: string, path: string, parse: () => T): Promise<T> {
  return afterLoading(() => parsedAt(key, path, parse));
}

function noConsolidated(path: string): NotFoundError {
  return new NotFoundError(
    `/${path}`,
    "consolidated metadata",
    "the group has none; write it with consolidateMetadata() or open with consolidated: false",
  );
}

/**
 * Reads the metadata of the node at `path`: `zarr.json` (v3), else `.zmetadata` (v2
 * consolidated, for groups) or `.zarray` / `.zgroup` with `.zattrs` (v2). Resolves to
 * `undefined` when there is no node.
 *
 * Costs: a v3 node, one request; a v2 group with consolidated metadata, one request when
 * `zarrFormat: 2` is given and two otherwise (the `zarr.json` probe, then `.zmetadata`).
 * @throws MetadataError (and subclasses) for malformed or unsupported metadata, consolidated
 *   metadata included
 */
export async function readNodeMetadata(
  store: Readable,
  path: string,
  options: ReadMetadataOptions = {},
): Promise<NodeMetadata | undefined> {
  checkChoice(options.zarrFormat, [2, 3], "zarrFormat");
  checkChoice(options.kind, ["array", "group"], "kind");
  checkChoice(options.consolidated, [true, false], "consolidated");
  const { zarrFormat, signal } = options;
  const useConsolidated = options.consolidated !== false && options.kind !== "array";
  if (zarrFormat !== 2) {
    const key = joinKey(path, METADATA_KEYS.zarrJson);
    const doc = await readJson(store, key, signal, path);
    if (doc !== undefined) {
      const node = await parsedAfterLoading(key, path, () => parseV3Node(doc, `/${key}`));
      if (node.kind === "group" && useConsolidated) {
        // Loaded on first use: an app that only opens arrays never needs it.
        const { ConsolidatedMetadata } = await loadConsolidatedModel();
        const held = node.metadata.consolidatedMetadata;
        node.consolidated = await parsedAfterLoading(key, path, () =>
          ConsolidatedMetadata.fromV3(held, `/${key}`),
        );
        if (options.consolidated === true && !node.consolidated) throw noConsolidated(path);
      }
      return node;
    }
  }
  if (zarrFormat === 3) return undefined;
  if (useConsolidated && options.probeV2Consolidated !== false) {
    const found = await readV2Consolidated(store, path, signal);
    if (found) return found;
  }
  const node = await readV2Node(store, path, signal);
  if (node?.kind === "group" && options.consolidated === true) throw noConsolidated(path);
  return node;
}

/** A v2 group through its `.zmetadata`, whose own entries (`.zgroup`, `.zattrs`) save their reads. */
async function readV2Consolidated(
  store: Readable,
  path: string,
  signal?: AbortSignal,
): Promise<NodeMetadata | undefined> {
  const key = joinKey(path, METADATA_KEYS.zmetadata);
  const doc = await readJson(store, key, signal, path);
  if (doc === undefined) return undefined;
  const { ConsolidatedMetadata } = await loadConsolidatedModel();
  const consolidated = await parsedAfterLoading(key, path, () =>
    ConsolidatedMetadata.fromV2(doc, `/${key}`),
  );
  const self = consolidated.selfV2();
  if (self?.zgroup) {
    const where = `/${key} ${JSON.stringify(METADATA_KEYS.zgroup)}`;
    const { zgroup, zattrs } = self;
    const { parseV2Group } = await loadV2Parser();
    return {
      kind: "group",
      metadata: await parsedAfterLoading(key, path, () => parseV2Group(zgroup, zattrs, where)),
      consolidated,
    };
  }
  // Consolidated metadata without the group's own documents (not what zarr-python writes, but
  // legal): read them from the store.
  const node = await readV2Node(store, path, signal);
  return node?.kind === "group" ? { ...node, consolidated } : node;
}

async function readV2Node(
  store: Readable,
  path: string,
  signal?: AbortSignal,
): Promise<NodeMetadata | undefined> {
  const keyOf = (name: string) => joinKey(path, name);
  const attrsKey = keyOf(METADATA_KEYS.zattrs);
  // All three at once: `.zattrs` is wasted only where there is no node at all.
  const [zarray, zgroup, zattrs] = await Promise.all([
    readJson(store, keyOf(METADATA_KEYS.zarray), signal, path),
    readJson(store, keyOf(METADATA_KEYS.zgroup), signal, path),
    readJson(store, attrsKey, signal, path),
  ]);
  if (zarray === undefined && zgroup === undefined) return undefined;
  // Attributes first, so their errors name `.zattrs`, the document they are about.
  parsedAt(attrsKey, path, () => validateAttributes(zattrs, `/${attrsKey}`));
  const nodeKey = keyOf(zarray !== undefined ? METADATA_KEYS.zarray : METADATA_KEYS.zgroup);
  const { parseV2Node } = await loadV2Parser();
  return parsedAfterLoading(nodeKey, path, () =>
    parseV2Node(zarray, zgroup, zattrs, (name) => `/${keyOf(name)}`),
  );
}

/** Writes metadata documents under a node path. */
export async function writeDocuments(
  store: Writable,
  path: string,
  docs: [string, Uint8Array][],
  signal?: AbortSignal,
): Promise<void> {
  await Promise.all(docs.map(([key, bytes]) => store.set(joinKey(path, key), bytes, { signal })));
}

/** Writes many documents (full store keys), at most `concurrency` at a time. */
export async function writeManyDocuments(
  store: Writable,
  docs: Iterable<[string, Uint8Array]>,
  options: { signal?: AbortSignal; concurrency?: number } = {},
): Promise<void> {
  await forEachConcurrent(
    docs,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    ([key, bytes]) => store.set(key, bytes, { signal: options.signal }),
    options.signal,
  );
}

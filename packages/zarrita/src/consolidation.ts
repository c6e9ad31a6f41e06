import { ConsolidatedMetadata, type JsonObject, type JsonValue } from "@z/zarr";
import { InvalidMetadataError, NotFoundError, toZarritaError } from "./errors.js";
import { defineStoreExtension } from "./extensions.js";
import type { AbsolutePath, Readable } from "./store.js";

/** The formats of consolidated metadata: v2 `.zmetadata`, v3 inline `consolidated_metadata`. */
export type ConsolidatedFormat = "v2" | "v3";

/** Options of {@link withConsolidatedMetadata}. */
export interface ConsolidatedMetadataOptions {
  /** The format(s) to look for, in order (default `"v2"`). */
  format?: ConsolidatedFormat | ConsolidatedFormat[];
  /** The key of v2 consolidated metadata (default `.zmetadata`). */
  metadataKey?: string;
}

/** A node listed in consolidated metadata. */
export interface ConsolidatedEntry {
  /** The node's absolute path. */
  path: AbsolutePath;
  /** Its kind. */
  kind: "array" | "group";
}

/** What {@link withConsolidatedMetadata} adds to a store: the listing of the hierarchy. */
export interface Listable {
  /** Every node of the hierarchy, the root first. */
  contents(): ConsolidatedEntry[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function parseJson(bytes: Uint8Array, key: string): JsonValue {
  try {
    return JSON.parse(decoder.decode(bytes)) as JsonValue;
  } catch (cause) {
    throw new InvalidMetadataError(`${key} is not valid JSON`, { path: key, cause });
  }
}

/** The consolidated metadata of a store's root in one format, or a NotFoundError. */
async function load(
  store: Readable,
  format: ConsolidatedFormat,
  metadataKey: string,
): Promise<{ view: ConsolidatedMetadata; documents: Map<string, Uint8Array> }> {
  const key = (format === "v2" ? `/${metadataKey}` : "/zarr.json") as AbsolutePath;
  const bytes = await store.get(key);
  if (bytes === undefined)
    throw new NotFoundError(`${format} consolidated metadata`, { path: key });
  const json = parseJson(bytes, key);
  const documents = new Map<string, Uint8Array>();
  let view: ConsolidatedMetadata | undefined;
  try {
    if (format === "v2") {
      view = ConsolidatedMetadata.fromV2(json, key);
      const listed = view.toJson().metadata as JsonObject;
      for (const [name, doc] of Object.entries(listed)) {
        documents.set(`/${name}`, encoder.encode(JSON.stringify(doc)));
      }
    } else {
      const inline = (json as JsonObject | null)?.consolidated_metadata;
      view = ConsolidatedMetadata.fromV3(inline ?? undefined, key);
      if (view !== undefined) {
        documents.set(key, bytes);
        const listed = view.toJson().metadata as JsonObject;
        for (const [path, doc] of Object.entries(listed)) {
          documents.set(`/${path}/zarr.json`, encoder.encode(JSON.stringify(doc)));
        }
      }
    }
  } catch (err) {
    throw toZarritaError(err, key);
  }
  if (view === undefined) throw new NotFoundError(`${format} consolidated metadata`, { path: key });
  return { view, documents };
}

/**
 * A store whose hierarchy is read from its consolidated metadata (zarrita's
 * `withConsolidatedMetadata`): `contents()` lists every node, and the metadata documents of
 * the listed nodes are answered from it without reading the store. The `@z` stack parses and
 * checks the consolidated document.
 * @throws NotFoundError when the store has no consolidated metadata in the formats asked for
 * @example
 * ```ts
 * const store = await withConsolidatedMetadata(new FetchStore(url), { format: ["v3", "v2"] });
 * for (const { path, kind } of store.contents()) console.log(kind, path);
 * ```
 * @category Stores
 */
export const withConsolidatedMetadata = defineStoreExtension(
  async (inner: Readable, options: ConsolidatedMetadataOptions | undefined) => {
    const formats = [options?.format ?? "v2"].flat();
    let loaded: Awaited<ReturnType<typeof load>> | undefined;
    let failure: unknown;
    for (const format of formats) {
      try {
        loaded = await load(inner, format, options?.metadataKey ?? ".zmetadata");
        break;
      } catch (err) {
        failure ??= err;
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    if (loaded === undefined) throw failure;
    const { view, documents } = loaded;
    const contents: ConsolidatedEntry[] = [
      { path: "/", kind: "group" },
      ...view.paths().map((path) => ({
        path: `/${path}` as AbsolutePath,
        kind: view.kind(path) as "array" | "group",
      })),
    ];
    return {
      async get(key: AbsolutePath, opts?: { signal?: AbortSignal }) {
        const document = documents.get(key);
        return document !== undefined ? document.slice() : inner.get(key, opts);
      },
      contents: (): ConsolidatedEntry[] => contents.map((entry) => ({ ...entry })),
    };
  },
);

/**
 * {@link withConsolidatedMetadata} when the store has consolidated metadata, and the store
 * itself when it has none.
 * @category Stores
 */
export async function withMaybeConsolidatedMetadata<S extends Readable>(
  store: S,
  options?: ConsolidatedMetadataOptions,
): Promise<S | (S & Listable)> {
  try {
    return (await withConsolidatedMetadata(store, options)) as S & Listable;
  } catch (err) {
    if (err instanceof NotFoundError) return store;
    throw err;
  }
}

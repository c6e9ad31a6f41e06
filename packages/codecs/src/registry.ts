import type { JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import { isJsonObject } from "@z/metadata";
// The built-in registrations run with the registry: every app that builds a codec imports this
// module, so bundlers cannot drop them (as they may drop a bare import from an unused index).
import "./builtins.js";
import { addCodecLoader, factories, loaders, runLoader } from "./codec-table.js";
import { UnknownCodecError } from "./errors.js";
import { CodecNotLoadedError } from "./not-loaded.js";
import type { Codec, CodecContext, CodecFactory } from "./types.js";
import { UNSUPPORTED_CODECS } from "./unsupported.js";

/**
 * Registers a codec under a metadata name. v2 compressors and filters are registered under
 * `numcodecs.<id>`, the name zarr-python 3 gives them in v3 metadata and the name v2 metadata
 * is translated to.
 * @example
 * ```ts
 * registerCodec("example.invert", () => ({
 *   kind: "bytes_to_bytes",
 *   name: "example.invert",
 *   encode: (bytes) => bytes.map((b) => 255 - b),
 *   decode: (bytes) => bytes.map((b) => 255 - b),
 *   toJson: () => ({ name: "example.invert", configuration: {}, mustUnderstand: true }),
 * }));
 * await createArray(store, { shape: [8], dtype: "uint8", compressors: [{ name: "example.invert" }] });
 * ```
 * @category Extending
 */
export function registerCodec(name: string, factory: CodecFactory): void {
  factories.set(name, factory);
}

/**
 * Registers codecs that load on first use: `load` imports a module that registers `names`
 * (with {@link registerCodec}) when it runs. Opening or creating an array whose metadata names
 * one of them awaits the import first, so a page downloads a codec only when an array uses it.
 * @example
 * ```ts
 * registerCodecLoader(["example.invert"], () => import("./invert-codec.js"));
 * ```
 * @category Extending
 */
export function registerCodecLoader(names: readonly string[], load: () => Promise<unknown>): void {
  addCodecLoader(names, load);
}

/**
 * Whether a codec name is registered (loaded or loading on first use).
 * @category Codecs
 */
export function hasCodec(name: string): boolean {
  return factories.has(name) || loaders.has(name);
}

/** The registered codec names, those that load on first use included. */
export function registeredCodecs(): string[] {
  return [...new Set([...factories.keys(), ...loaders.keys()])].sort();
}

/**
 * Loads the modules of codecs that load on first use; names already loaded, and unknown names
 * (reported when the codec is built), cost nothing.
 * @example
 * ```ts
 * await loadCodecs(["zstd", "blosc"]);
 * const zstd = resolveCodec({ name: "zstd", configuration: {}, mustUnderstand: true }, context);
 * ```
 * @category Codecs
 */
export async function loadCodecs(names: Iterable<string>): Promise<void> {
  const pending: Promise<void>[] = [];
  for (const name of names) {
    const loader = loaders.get(name);
    if (loader && !loader.done && !factories.has(name)) pending.push(runLoader(loader));
  }
  await Promise.all(pending);
}

/**
 * Loads every codec registered to load on first use (for code that builds codecs synchronously
 * from names it cannot know in advance).
 * @category Codecs
 */
export function loadAllCodecs(): Promise<void> {
  return loadCodecs(loaders.keys());
}

/** Keys whose values are user data, never codec entries. */
const isUserData = (key: string) => key === "attributes" || key.endsWith(".zattrs");

function collectCodecNames(json: JsonValue, names: Set<string>, depth: number): void {
  if (depth > 64) return;
  if (Array.isArray(json)) {
    for (const item of json) collectCodecNames(item, names, depth + 1);
    return;
  }
  if (!isJsonObject(json)) return;
  if (typeof json.name === "string") names.add(json.name);
  if (typeof json.id === "string") names.add(`numcodecs.${json.id}`);
  for (const [key, value] of Object.entries(json))
    if (!isUserData(key)) collectCodecNames(value, names, depth + 1);
}

/**
 * Loads the codecs a metadata document names (v3 `zarr.json` `codecs`, nested ones such as
 * sharding's inner codecs included; v2 `.zarray` `compressor` and `filters`; consolidated
 * metadata), outside attributes. Resolves at once when every one is loaded already.
 * @category Codecs
 */
export function loadCodecsFor(json: JsonValue): Promise<void> {
  const names = new Set<string>();
  collectCodecNames(json, names, 0);
  return loadCodecs(names);
}

/**
 * Builds the codec a metadata entry describes, or `undefined` for an unknown codec that may
 * be ignored (`must_understand: false`).
 * @throws UnknownCodecError for an unknown codec that must be understood; its subclass
 *   CodecNotLoadedError for a codec that loads on first use and is not loaded yet (see
 *   {@link loadCodecs})
 */
export function resolveCodec(
  entry: NamedConfig,
  context: CodecContext,
  where = "",
): Codec | undefined {
  const factory = factories.get(entry.name);
  if (!factory) {
    const loader = loaders.get(entry.name);
    if (loader && !loader.done)
      throw new CodecNotLoadedError(entry.name, where, () => runLoader(loader));
    if (!entry.mustUnderstand) return undefined;
    const reason = Object.hasOwn(UNSUPPORTED_CODECS, entry.name)
      ? UNSUPPORTED_CODECS[entry.name]
      : undefined;
    throw new UnknownCodecError(entry.name, where, reason);
  }
  return factory(entry.configuration as JsonObject, context);
}

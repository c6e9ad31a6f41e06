// The codec registry's tables, apart from its public functions so that the built-in codecs that
// load on first use can add their factories behind anything registered already.
import { type OnceLoader, runLoaderOnce } from "@z/metadata/internal";
import type { CodecFactory } from "./types.js";

/** Codec factories by metadata name. */
export const factories = new Map<string, CodecFactory>();

/** A module that registers codecs when it is imported; a name it did not register is then simply unknown. */
export type CodecLoader = OnceLoader;

/** Loaders by the codec names their modules register. */
export const loaders = new Map<string, CodecLoader>();

/**
 * Adds the factory of a built-in codec that loads on first use, unless one is registered under
 * the name already: a user's `registerCodec` made before the module loaded still wins, as it
 * would over an eagerly registered built-in.
 */
export function provideCodec(name: string, factory: CodecFactory): void {
  if (!factories.has(name)) factories.set(name, factory);
}

/** Runs a codec loader once (see `runLoaderOnce` of @z/metadata). */
export const runLoader: (loader: CodecLoader) => Promise<void> = runLoaderOnce;

/** Registers a module that registers `names` when imported (see `registerCodecLoader`). */
export function addCodecLoader(names: readonly string[], load: () => Promise<unknown>): void {
  const loader: CodecLoader = { load, done: false };
  for (const name of names) loaders.set(name, loader);
}

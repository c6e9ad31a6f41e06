// The codec registry's tables, apart from its public functions so that the built-in codecs that
// load on first use can add their factories behind anything registered already.
import type { CodecFactory } from "./types.js";

/** Codec factories by metadata name. */
export const factories = new Map<string, CodecFactory>();

/** A module that registers codecs when it is imported. */
export interface CodecLoader {
  /** Imports the module (which registers its codecs). */
  readonly load: () => Promise<unknown>;
  /** The import under way or done; `undefined` before it starts or after a failure. */
  pending?: Promise<void>;
  /** Whether the import finished: a name it did not register is then simply unknown. */
  done: boolean;
}

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

/** Runs a loader once (again after a failure, which may be a passing network error). */
export function runLoader(loader: CodecLoader): Promise<void> {
  if (loader.done) return Promise.resolve();
  loader.pending ??= loader.load().then(
    () => {
      loader.done = true;
    },
    (error: unknown) => {
      loader.pending = undefined;
      throw error;
    },
  );
  return loader.pending;
}

/** Registers a module that registers `names` when imported (see `registerCodecLoader`). */
export function addCodecLoader(names: readonly string[], load: () => Promise<unknown>): void {
  const loader: CodecLoader = { load, done: false };
  for (const name of names) loaders.set(name, loader);
}

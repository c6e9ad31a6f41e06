/** A module imported on first use, at most once at a time (data type and codec loaders). */
export interface OnceLoader {
  /** Imports the module (which registers what it brings). */
  readonly load: () => Promise<unknown>;
  /** The import under way or done; `undefined` before it starts or after a failure. */
  pending?: Promise<void>;
  /** Whether the import finished. */
  done: boolean;
}

/** Runs a loader once (again after a failure, which may be a passing network error). */
export function runLoaderOnce(loader: OnceLoader): Promise<void> {
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

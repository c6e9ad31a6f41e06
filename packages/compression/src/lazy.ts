/**
 * Loads a module on first use and then uses it synchronously: `use(m => m.f(x))` returns
 * `m.f(x)` at once when the module is loaded, else a promise of it. Heavy code (pako, fflate,
 * the Blosc decompressors) sits behind these so that an app's first load does not carry it, and
 * so that once loaded, calls cost no extra microtask. A failed load is tried again next time.
 */
export function lazily<M>(load: () => Promise<M>): <R>(use: (module: M) => R) => R | Promise<R> {
  let module: M | undefined;
  let pending: Promise<M> | undefined;
  return <R>(use: (module: M) => R): R | Promise<R> => {
    if (module !== undefined) return use(module);
    pending ??= load().then(
      (loaded) => {
        module = loaded;
        return loaded;
      },
      (error: unknown) => {
        pending = undefined; // a failed load (network) may succeed later
        throw error;
      },
    );
    return pending.then(use);
  };
}

/**
 * The symbol `await using` calls to release a store: `Symbol.asyncDispose` where the runtime
 * defines it (Node 20 defines it as `Symbol.for("nodejs.asyncDispose")`, Node 24 and recent
 * browsers as a well-known symbol), the same registered symbol as Node 20 where it does not.
 * Stores key their dispose method with it, so `await using store = ...` works on both.
 */
export const asyncDispose: typeof Symbol.asyncDispose =
  (Symbol as { asyncDispose?: typeof Symbol.asyncDispose }).asyncDispose ??
  (Symbol.for("nodejs.asyncDispose") as typeof Symbol.asyncDispose);

/**
 * Releases what a store holds (file handles, a zip's central directory, a database
 * connection): calls its `Symbol.asyncDispose` method, or its `close` when it has only that.
 * Stores that hold nothing have a dispose method that does nothing.
 * @example
 * ```ts
 * await closeStore(store); // the same as leaving an `await using store = ...` block
 * ```
 */
export async function closeStore(store: object): Promise<void> {
  const disposable = store as {
    [asyncDispose]?: () => PromiseLike<void>;
    close?: () => unknown;
  };
  if (typeof disposable[asyncDispose] === "function") await disposable[asyncDispose]();
  else if (typeof disposable.close === "function") await disposable.close();
}

import { afterEach, type TestContext, test } from "vitest";
import type { Listable, Readable, Store, Writable } from "../store.js";
import type { MakeStore, ResolvedContractOptions } from "./options.js";

/** What each group of contract tests gets: the store factory, the options, a test registrar. */
export interface ContractContext {
  readonly options: ResolvedContractOptions<Readable>;
  /** Builds a store holding `entries`; it is disposed after the test (or by {@link dispose}). */
  make(entries?: Iterable<readonly [string, Uint8Array]>): Promise<Store>;
  /** Disposes a store made by {@link make} before the test ends. */
  dispose(store: Store): Promise<void>;
  /**
   * Registers a test under a stable name, honouring `skip` and `expectedFailures`; `when` false
   * registers it as skipped (the options say the store lacks what the test needs). A test that
   * finds an optional method missing calls `context.skip(true, why)`.
   */
  test(name: string, fn: (context: TestContext) => Promise<void>, when?: boolean): void;
  /** Every name registered so far, to reject unknown names in `skip` / `expectedFailures`. */
  readonly names: Set<string>;
}

/** Sets up the per-suite context: store tracking and disposal after each test. */
export function createContext(
  makeStore: MakeStore<Readable>,
  options: ResolvedContractOptions<Readable>,
): ContractContext {
  const live = new Set<Store>();
  const names = new Set<string>();

  const dispose = async (store: Store) => {
    if (!live.delete(store)) return;
    await options.dispose(store);
  };

  afterEach(async () => {
    for (const store of [...live]) await dispose(store);
  });

  return {
    options,
    names,
    async make(entries = []) {
      const store = (await makeStore(new Map(entries))) as Store;
      live.add(store);
      return store;
    },
    dispose,
    test(name, fn, when = true) {
      if (names.has(name)) throw new Error(`Duplicate store contract test name: ${name}`);
      names.add(name);
      if (!when || options.skip.has(name)) test.skip(name, fn);
      else if (options.expectedFailures.has(name)) test.fails(name, fn);
      else test(name, fn);
    },
  };
}

/** The store's write methods; only called by tests registered for writable stores. */
export function writer(store: Store): Readable & Writable {
  return store as Readable & Writable;
}

/** The store's listing methods; only called by tests registered for listable stores. */
export function lister(store: Store): Readable & Listable {
  return store as Readable & Listable;
}

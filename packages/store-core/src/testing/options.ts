import type { Readable } from "../store.js";

/**
 * Builds a fresh store holding exactly `entries` (the suite never changes the map or its
 * values). Writable stores usually start empty and write the entries with {@link fillStore};
 * read-only ones are built over a store that already holds them.
 */
export type MakeStore<S extends Readable = Readable> = (
  entries: ReadonlyMap<string, Uint8Array>,
) => S | Promise<S>;

/** What a store under test can do, and how the suite treats it. */
export interface StoreContractOptions<S extends Readable = Readable> {
  /**
   * `true` (default): `set`, `delete` and `deletePrefix` work. `"read-only"`: they exist and
   * reject with `ReadOnlyError`, changing nothing. `false`: the store has no write methods.
   */
  writable?: boolean | "read-only";
  /** Whether `list`, `listPrefix` and `listDir` work (default true). */
  listable?: boolean;
  /**
   * Whether every `get` returns memory of its own, so the caller may change it without changing
   * the store (file and network stores). Stores that hand out views of what they hold
   * (`MapStore`) leave this false, and callers must treat what they get as read-only.
   */
  freshReadBuffers?: boolean;
  /** Releases a store made by `makeStore` (removes its folder, closes handles). */
  dispose?: (store: S) => void | Promise<void>;
  /** Random operation sequences the property test runs (default 40). */
  propertyRuns?: number;
  /** How many keys the "many keys" test writes (default 500). */
  manyKeys?: number;
  /** Names of tests not to run, each with a reason in a comment where it is passed. */
  skip?: readonly string[];
  /**
   * Names of tests known to fail for this store: they run as `test.fails`, so the suite turns
   * red as soon as the store is fixed and the entry can be removed.
   */
  expectedFailures?: readonly string[];
}

/** The options with their defaults filled in. */
export interface ResolvedContractOptions<S extends Readable = Readable> {
  writable: boolean | "read-only";
  listable: boolean;
  freshReadBuffers: boolean;
  dispose: (store: S) => void | Promise<void>;
  propertyRuns: number;
  manyKeys: number;
  skip: ReadonlySet<string>;
  expectedFailures: ReadonlySet<string>;
}

/** Fills in the defaults of {@link StoreContractOptions}. */
export function resolveContractOptions<S extends Readable>(
  options: StoreContractOptions<S> = {},
): ResolvedContractOptions<S> {
  return {
    writable: options.writable ?? true,
    listable: options.listable ?? true,
    freshReadBuffers: options.freshReadBuffers ?? false,
    dispose: options.dispose ?? (() => {}),
    propertyRuns: options.propertyRuns ?? 40,
    manyKeys: options.manyKeys ?? 500,
    skip: new Set(options.skip ?? []),
    expectedFailures: new Set(options.expectedFailures ?? []),
  };
}

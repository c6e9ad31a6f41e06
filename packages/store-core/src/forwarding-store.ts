import { forwardListing, forwardSize, forwardWrites } from "./forward.js";
import type { GetOptions, Listable, Readable, Writable } from "./store.js";

/**
 * Base of the wrapper stores that pass a store's capabilities on: it declares every optional
 * member once and, when constructed, gives the wrapper those the wrapped store has, unchanged
 * (`has`, `getSize`, the writes with versioned reads and conditional writes, the listing). A
 * subclass replaces the ones it changes (a cache wraps `set` to drop what it holds) and
 * overrides `get`. Keys pass through unchecked: the wrapped store checks them.
 * @example
 * ```ts
 * class CountingStore extends ForwardingStore {
 *   reads = 0;
 *   override get(key: string, options?: GetOptions) {
 *     this.reads++;
 *     return this.inner.get(key, options);
 *   }
 * }
 * ```
 * @category Stores
 */
export class ForwardingStore implements Readable, Partial<Writable>, Partial<Listable> {
  /** The wrapped store's `has`, when it has one. */
  declare has?: Readable["has"];
  /** The wrapped store's `getSize(key)`, when it has one. */
  declare getSize?: Readable["getSize"];
  /** The wrapped store's versioned reads, when it has conditional writes. */
  declare getVersioned?: Readable["getVersioned"];
  /** True when the wrapped store has conditional writes, which pass through. */
  declare readonly conditionalWrites?: boolean;
  /** The wrapped store's `set`, when it can be written. */
  declare set?: Writable["set"];
  /** The wrapped store's `setIfNotExists`, when it has one. */
  declare setIfNotExists?: Writable["setIfNotExists"];
  /** The wrapped store's `delete`, when it can be written. */
  declare delete?: Writable["delete"];
  /** The wrapped store's `deletePrefix`, when it can be written. */
  declare deletePrefix?: Writable["deletePrefix"];
  /** The wrapped store's `list`, when it can list. */
  declare list?: Listable["list"];
  /** The wrapped store's `listPrefix`, when it can list. */
  declare listPrefix?: Listable["listPrefix"];
  /** The wrapped store's `listDir`, when it can list. */
  declare listDir?: Listable["listDir"];

  constructor(readonly inner: Readable) {
    if (inner.has) this.has = inner.has.bind(inner);
    forwardSize(this, inner);
    forwardWrites(this, inner);
    forwardListing(this, inner);
  }

  /** Reads from the wrapped store. */
  get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    return this.inner.get(key, options);
  }
}

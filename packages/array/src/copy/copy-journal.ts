import {
  isListable,
  prefixOf,
  type Readable,
  type SetOptions,
  throwIfAborted,
  type Writable,
} from "@z/store-core";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { bumpAllEpochs } from "../write/key-lock.js";
import { IncompleteRollbackError } from "../write/rollback-error.js";

/**
 * Every key a copy writes or deletes, with what it held before, so that a failed copy can put
 * the destination back as it was. {@link WriteJournal.store} is the destination seen through
 * the journal: the copy writes through it, {@link WriteJournal.rollback} undoes those writes.
 *
 * A key's old value is read before its first write, unless the key is known to be new: keys
 * below `root` that a listing before the copy did not show. So a copy into an empty place costs
 * no extra reads; only the documents of existing ancestors (consolidated metadata) are read.
 * Deleting a prefix (a copy with `overwrite` removing what it replaces) cannot be taken back;
 * {@link WriteJournal.lossy} then tells.
 */
export class WriteJournal {
  /** The value each key held before its first write through the journal (undefined: none). */
  private readonly before = new Map<string, Promise<Uint8Array | undefined>>();
  /** Writes still in flight, which a rollback waits for. */
  private readonly inFlight = new Set<Promise<unknown>>();
  private existing: Set<string> | undefined;
  private rootPrefix = "";
  /** True when the copy deleted a prefix, which a rollback cannot restore. */
  lossy = false;
  /** The destination seen through the journal. */
  readonly store: Readable & Writable;

  private constructor(private readonly target: Readable & Writable) {
    this.store = this.wrap();
  }

  /**
   * A journal of writes to `store`. When the store can list keys, the keys below the node
   * path `root` are listed first, so writes of keys it does not hold skip reading them.
   */
  static async open(
    store: Readable & Writable,
    root: string,
    signal?: AbortSignal,
  ): Promise<WriteJournal> {
    const journal = new WriteJournal(store);
    if (isListable(store)) {
      const prefix = prefixOf(root);
      const existing = new Set<string>();
      for await (const key of store.listPrefix(prefix)) {
        throwIfAborted(signal);
        existing.add(key);
      }
      journal.existing = existing;
      journal.rootPrefix = prefix;
    }
    return journal;
  }

  /** The keys written or deleted through the journal so far. */
  get keys(): string[] {
    return [...this.before.keys()];
  }

  /** Whether the store is known not to hold `key` before the copy. */
  private isNew(key: string): boolean {
    return (
      this.existing !== undefined && key.startsWith(this.rootPrefix) && !this.existing.has(key)
    );
  }

  /** Records what `key` holds before its first write (`absent`: the write proves it held nothing). */
  private remember(key: string, absent = false): Promise<unknown> {
    let old = this.before.get(key);
    if (old === undefined) {
      if (absent || this.isNew(key)) old = Promise.resolve(undefined);
      else {
        const read: Promise<Uint8Array | undefined> = this.target.get(key).then(
          (bytes) => (bytes === undefined ? undefined : bytes.slice()),
          (error: unknown) => {
            // Nothing was written, since the write waits for this read: nothing to take back.
            if (this.before.get(key) === read) this.before.delete(key);
            throw error;
          },
        );
        old = read;
      }
      this.before.set(key, old);
    }
    return old;
  }

  /** Runs a write, tracked so that a rollback starts only once it has settled. */
  private track<T>(write: Promise<T>): Promise<T> {
    this.inFlight.add(write);
    const done = () => this.inFlight.delete(write);
    write.then(done, done);
    return write;
  }

  private wrap(): Readable & Writable {
    const target = this.target;
    const set = (key: string, value: Uint8Array, options?: SetOptions) =>
      this.track(
        (async () => {
          // A write that succeeds only on a missing key proves the key was missing.
          await this.remember(key, options?.ifNoneMatch === "*" && !this.before.has(key));
          await target.set(key, value, options);
        })(),
      );
    const setIfNotExists = (key: string, value: Uint8Array, options?: SetOptions) =>
      this.track(
        (async () => {
          const known = this.before.has(key);
          const wrote = await (target.setIfNotExists as NonNullable<Writable["setIfNotExists"]>)(
            key,
            value,
            options,
          );
          if (wrote && !known) this.before.set(key, Promise.resolve(undefined));
          return wrote;
        })(),
      );
    const remove = (key: string, options?: SetOptions) =>
      this.track(
        (async () => {
          await this.remember(key);
          await target.delete(key, options);
        })(),
      );
    const deletePrefix = (prefix: string, options?: SetOptions) => {
      this.lossy = true;
      return this.track(target.deletePrefix(prefix, options));
    };
    return new Proxy(target, {
      get(object, property) {
        if (property === "set") return set;
        if (property === "delete") return remove;
        if (property === "deletePrefix") return deletePrefix;
        if (property === "setIfNotExists" && typeof object.setIfNotExists === "function")
          return setIfNotExists;
        const value = Reflect.get(object, property, object);
        return typeof value === "function" ? value.bind(object) : value;
      },
    });
  }

  /** Whether `key` holds `bytes` (undefined: is missing), as far as a read can tell. */
  private async holds(key: string, bytes: Uint8Array | undefined): Promise<boolean> {
    const now = await this.target.get(key).catch(() => null);
    if (now === null) return false;
    if (now === undefined || bytes === undefined) return now === bytes;
    return now.length === bytes.length && now.every((b, i) => b === bytes[i]);
  }

  /**
   * Puts every key written or deleted through the journal back as it was (deleted when it did
   * not exist), once the writes in flight have settled. Writes straight to the store, without
   * the copy's abort signal: an aborted copy is rolled back too.
   * @throws IncompleteRollbackError, whose cause is `cause`, when some keys cannot be put back
   */
  async rollback(cause: unknown, concurrency = DEFAULT_CONCURRENCY): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    const left: string[] = [];
    const errors: unknown[] = [];
    await forEachConcurrent(this.before.entries(), concurrency, async ([key, old]) => {
      const bytes = await old;
      try {
        if (bytes === undefined) await this.target.delete(key);
        else await this.target.set(key, bytes);
      } catch (error) {
        // A write that failed may never have happened: the key is left only if it differs.
        if (!(await this.holds(key, bytes))) {
          left.push(key);
          errors.push(error);
        }
      }
    });
    bumpAllEpochs(); // the keys put back bypassed the key locks (see writeEpoch)
    if (left.length > 0) throw new IncompleteRollbackError(cause, left.sort(), errors);
  }
}

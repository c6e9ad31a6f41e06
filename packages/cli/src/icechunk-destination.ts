import {
  ForwardingStore,
  type GetOptions,
  type Readable,
  resolveStore,
  StoreError,
  type Writable,
} from "@z/zarr";
import { UsageError } from "./errors.js";

/**
 * A session's store that takes chunks before their array's `zarr.json`: a copy writes each
 * array's chunks first and its metadata last (so a failed copy leaves no half-written node),
 * while an Icechunk session knows a chunk key only once the array exists. Chunks of an array
 * not yet written wait here, in memory, and go to the session with the array's metadata.
 */
class MetadataLastStore extends ForwardingStore {
  readonly #waiting = new Map<string, Uint8Array>();

  constructor(readonly session: Readable & Writable) {
    super(session);
    // Versioned reads would miss the waiting chunks: a copy then reads and writes plainly.
    this.getVersioned = undefined;
    (this as { conditionalWrites?: boolean }).conditionalWrites = undefined;
  }

  override get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const waiting = this.#waiting.get(key);
    return waiting !== undefined ? Promise.resolve(waiting) : this.session.get(key, options);
  }

  override has = async (key: string): Promise<boolean> =>
    this.#waiting.has(key) || (await this.session.get(key)) !== undefined;

  override set = async (key: string, value: Uint8Array): Promise<void> => {
    if (key === "zarr.json" || key.endsWith("/zarr.json")) {
      await this.session.set(key, value);
      const prefix = key.slice(0, -"zarr.json".length);
      for (const [waiting, bytes] of this.#waiting)
        if (waiting.startsWith(prefix) && (await this.#tryChunk(waiting, bytes)))
          this.#waiting.delete(waiting);
      return;
    }
    this.#waiting.delete(key);
    if (!(await this.#tryChunk(key, value))) this.#waiting.set(key, value);
  };

  override delete = async (key: string): Promise<void> => {
    if (this.#waiting.delete(key)) return;
    await this.session.delete(key);
  };

  /** Writes a chunk to the session; false when its array is not there yet. */
  async #tryChunk(key: string, value: Uint8Array): Promise<boolean> {
    const { IcechunkSessionError } = await import("@z/store-icechunk");
    try {
      await this.session.set(key, value);
      return true;
    } catch (error) {
      if (
        error instanceof IcechunkSessionError &&
        / is neither a zarr\.json nor a chunk key/.test(error.message)
      )
        return false;
      throw error;
    }
  }

  /** Refuses to commit chunks that no array took. */
  checkComplete(): void {
    const [first] = this.#waiting.keys();
    if (first !== undefined)
      throw new StoreError(
        `${this.#waiting.size} chunk(s) written to the Icechunk session belong to no array (${first}); nothing was committed`,
      );
  }
}

/** A branch of an Icechunk repository being written: its session's store and the commit to make. */
interface PendingCommit {
  commit(message: string): Promise<string>;
  message: string;
}

/** The sessions this process opened on Icechunk destinations, committed when complete. */
const pending = new Map<Readable, PendingCommit>();

/**
 * A writable session on branch `main` (or the branch `#ref=` names) of the Icechunk repository
 * an `icechunk+` destination names, creating the repository when its location holds none.
 * Nothing reaches the branch until {@link commitIcechunkDestination}: a copy that fails leaves
 * the repository's history as it was.
 * @throws UsageError when `#ref` names no branch; the Icechunk errors of the repository
 */
export async function openIcechunkDestination(
  location: string,
  message: string,
): Promise<Readable> {
  const { createRepository, IcechunkRepositoryNotFoundError, openRepository } = await import(
    "@z/store-icechunk"
  );
  const hash = location.indexOf("#");
  const inner = location.slice("icechunk+".length, hash < 0 ? undefined : hash);
  const params = new URLSearchParams(hash < 0 ? "" : location.slice(hash + 1));
  if ([...params.keys()].some((k) => k !== "ref"))
    throw new UsageError(
      `Cannot write to ${location}: a destination takes only #ref=BRANCH (the branch to commit to)`,
    );
  const target = await resolveStore(inner);
  const repository = await openRepository(target).catch((error: unknown) => {
    if (error instanceof IcechunkRepositoryNotFoundError) return createRepository(target);
    throw error;
  });
  const session = await repository.writableSession({ branch: params.get("ref") ?? "main" });
  const store = new MetadataLastStore(session.store);
  pending.set(store, {
    commit: (m) => {
      store.checkComplete();
      return session.commit(m);
    },
    message,
  });
  return store;
}

/**
 * Commits what was written to an Icechunk destination, once, with the message given; returns
 * the new snapshot id, or undefined when `store` is no Icechunk destination.
 */
export async function commitIcechunkDestination(store: Readable): Promise<string | undefined> {
  const session = pending.get(store);
  if (session === undefined) return undefined;
  pending.delete(store);
  return session.commit(session.message);
}

/** Forgets the sessions never committed (a copy that failed): their writes are dropped. */
export function dropIcechunkDestinations(): void {
  pending.clear();
}

import type { Snapshot } from "./format/snapshot.js";
import type { Repository } from "./repository.js";
import { SnapshotStore } from "./snapshot-store.js";

/** A read-only view of one snapshot of a repository. */
export class ReadonlySession {
  /** The snapshot's Zarr hierarchy as a read-only store. */
  readonly store: SnapshotStore;

  /** @internal */
  constructor(
    /** The repository. */
    readonly repository: Repository,
    /** The snapshot read. */
    readonly snapshot: Snapshot,
  ) {
    this.store = new SnapshotStore(repository, snapshot);
  }

  /** The snapshot's id. */
  get snapshotId(): string {
    return this.snapshot.id;
  }
}

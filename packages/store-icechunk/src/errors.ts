import { nameErrorClass } from "@z/errors";
import { StoreError } from "@z/store-core";

declare module "@z/errors" {
  interface ZarrErrorMap {
    IcechunkError: IcechunkError;
    IcechunkFormatError: IcechunkFormatError;
    IcechunkObjectMissingError: IcechunkObjectMissingError;
    IcechunkRepositoryNotFoundError: IcechunkRepositoryNotFoundError;
    IcechunkRefNotFoundError: IcechunkRefNotFoundError;
    IcechunkSnapshotNotFoundError: IcechunkSnapshotNotFoundError;
    IcechunkConflictError: IcechunkConflictError;
    IcechunkSessionError: IcechunkSessionError;
    VirtualChunkError: VirtualChunkError;
    VirtualChunkModifiedError: VirtualChunkModifiedError;
  }
}

/**
 * Base class of the errors of an Icechunk repository.
 * @category Errors
 */
export class IcechunkError extends StoreError {
  static {
    nameErrorClass(IcechunkError, "IcechunkError");
  }
}

/**
 * A repository file (`repo`, a snapshot, a manifest, a ref) that cannot be decoded: wrong magic
 * bytes, an unknown spec version, file type or compression, a truncated or corrupt payload, a
 * flatbuffers offset or length outside the file. `file` is the file's key in the repository's
 * store.
 * @category Errors
 */
export class IcechunkFormatError extends IcechunkError {
  static {
    nameErrorClass(IcechunkFormatError, "IcechunkFormatError");
  }
  constructor(
    /** The file's key in the repository's store (`snapshots/1CECHNKREP0F1RSTCMT0`). */
    readonly file: string,
    /** What is wrong with it. */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Icechunk file ${JSON.stringify(file)} cannot be read: ${reason}`, {
      key: file,
      ...options,
    });
  }
}

/**
 * A file the repository refers to is not in its store: a manifest a snapshot lists, a chunk file
 * a manifest points at.
 * @category Errors
 */
export class IcechunkObjectMissingError extends IcechunkError {
  static {
    nameErrorClass(IcechunkObjectMissingError, "IcechunkObjectMissingError");
  }
  constructor(
    /** The missing file's key in the repository's store. */
    readonly file: string,
    /** Who refers to it. */
    readonly referrer: string,
  ) {
    super(`Icechunk file ${JSON.stringify(file)} (referred to by ${referrer}) is missing`, {
      key: file,
    });
  }
}

/**
 * The store holds no Icechunk repository: neither a `repo` file (spec version 2) nor a
 * `refs/branch.main/ref.json` (spec version 1).
 * @category Errors
 */
export class IcechunkRepositoryNotFoundError extends IcechunkError {
  static {
    nameErrorClass(IcechunkRepositoryNotFoundError, "IcechunkRepositoryNotFoundError");
  }
}

/**
 * A branch or tag that the repository does not have (or a tag that was deleted).
 * @category Errors
 */
export class IcechunkRefNotFoundError extends IcechunkError {
  static {
    nameErrorClass(IcechunkRefNotFoundError, "IcechunkRefNotFoundError");
  }
  constructor(
    /** `"branch"` or `"tag"`. */
    readonly kind: "branch" | "tag",
    /** The branch or tag name. */
    readonly ref: string,
    detail = "",
  ) {
    super(`Icechunk ${kind} ${JSON.stringify(ref)} does not exist${detail}`);
  }
}

/**
 * A snapshot id that the repository does not have, or a time before a branch's first snapshot.
 * @category Errors
 */
export class IcechunkSnapshotNotFoundError extends IcechunkError {
  static {
    nameErrorClass(IcechunkSnapshotNotFoundError, "IcechunkSnapshotNotFoundError");
  }
  constructor(
    /** The snapshot id (Crockford base 32) or what was asked for. */
    readonly snapshot: string,
    detail = "",
  ) {
    super(`Icechunk snapshot ${snapshot} does not exist${detail}`);
  }
}

/**
 * A virtual chunk whose bytes cannot be read: no resolver for its URL's scheme, the target is
 * missing or shorter than the reference says.
 * @category Errors
 */
export class VirtualChunkError extends IcechunkError {
  static {
    nameErrorClass(VirtualChunkError, "VirtualChunkError");
  }
  constructor(
    /** The target URL (query string removed). */
    readonly url: string,
    /** What went wrong. */
    readonly reason: string,
    options?: { cause?: unknown; key?: string },
  ) {
    super(`Virtual chunk ${url.split("?")[0]}: ${reason}`, options);
  }
}

/**
 * A virtual chunk whose target changed since the reference was written: its ETag differs from
 * the recorded one, or it was modified after the recorded time.
 * @category Errors
 */
export class VirtualChunkModifiedError extends VirtualChunkError {
  static {
    nameErrorClass(VirtualChunkModifiedError, "VirtualChunkModifiedError");
  }
}

/**
 * A commit or ref update lost a race: the branch no longer points at the snapshot the session
 * started from (another commit landed first), or the changes of a rebase overlap the commits
 * that landed (`paths` names the overlapping nodes and chunks), or a tag or branch to create
 * already exists.
 * @category Errors
 */
export class IcechunkConflictError extends IcechunkError {
  static {
    nameErrorClass(IcechunkConflictError, "IcechunkConflictError");
  }
  constructor(
    /** The branch (or tag) concerned. */
    readonly ref: string,
    /** The snapshot the writer expected the ref at (undefined: expected it not to exist). */
    readonly expected: string | undefined,
    /** Where the ref is now (undefined: it does not exist). */
    readonly actual: string | undefined,
    /** For a rebase, the node paths and chunk keys both sides changed. */
    readonly paths: string[] = [],
  ) {
    super(
      `Icechunk ref ${JSON.stringify(ref)} conflict: expected ${expected ?? "no ref"}, found ${actual ?? "no ref"}${
        paths.length > 0 ? `; both sides changed ${paths.slice(0, 20).join(", ")}` : ""
      }`,
    );
  }
}

/**
 * A session or repository cannot do what was asked: writing to a read-only session, committing
 * a session twice, a chunk outside any array, a store that cannot write conditionally.
 * @category Errors
 */
export class IcechunkSessionError extends IcechunkError {
  static {
    nameErrorClass(IcechunkSessionError, "IcechunkSessionError");
  }
}

import { nameErrorClass } from "@z/errors";
import { AbortError, InvalidKeyError, isZarrError, StoreError } from "@z/store-core";

declare module "@z/errors" {
  interface ZarrErrorMap {
    FsError: FsError;
    OutsideRootError: OutsideRootError;
  }
}

/** The `code` of a Node system error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Whether an error means "there is no such file here": the path is missing (`ENOENT`), a
 * parent is a file (`ENOTDIR`), or the name is a directory (`EISDIR`).
 */
export function isNoFile(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}

/** Whether an error means the path, or one of its parents, does not exist (as a directory). */
export function isNoDirectory(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}

/** What an {@link FsError} was doing when it failed. */
export type FsAction = "read" | "write" | "delete" | "list";

/**
 * A file system operation of an `FsStore` failed: permissions, a full or read-only disk, a
 * symlink loop, a special file (FIFO, socket, device) where a value should be. The Node
 * error, if any, is the `cause`; its code (`EACCES`, `ELOOP`...) is in `code`.
 */
export class FsError extends StoreError {
  static {
    nameErrorClass(FsError, "FsError");
  }
  /** The store key (or prefix) the operation was about. */
  override readonly key: string;
  /** The file path that failed. */
  override readonly path: string;
  /** What the store was doing. */
  readonly action: FsAction;
  /** The Node error code (`EACCES`, `ELOOP`, `ENOSPC`...), if there was one. */
  readonly code: string | undefined;

  constructor(
    key: string,
    path: string,
    action: FsAction,
    reason: string,
    options?: { cause?: unknown; code?: string },
  ) {
    super(`Cannot ${action} ${JSON.stringify(key)} (${path}): ${reason}`, {
      cause: options?.cause,
    });
    this.key = key;
    this.path = path;
    this.action = action;
    this.code = options?.code ?? errorCode(options?.cause);
  }
}

/**
 * A write, delete or read whose real path (after following symlinks) leaves the store's root
 * folder: FsStore never changes, and never reads, anything outside its root.
 */
export class OutsideRootError extends StoreError {
  static {
    nameErrorClass(OutsideRootError, "OutsideRootError");
  }
  constructor(
    /** The store key (or prefix). */
    override readonly key: string,
    /** Where the key's path really leads. */
    readonly realPath: string,
    /** The real path of the store's root. */
    readonly root: string,
    action: FsAction,
  ) {
    super(
      `Refusing to ${action} ${JSON.stringify(key)}: through a symlink it leads to ${realPath}, ` +
        `outside the store's folder ${root}`,
    );
  }
}

/** Plain-language reasons for the codes users meet; others fall back to the Node message. */
const REASONS: Record<string, string> = {
  ELOOP: "a symlink loop (a link that leads back to itself)",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOSPC: "the disk is full",
  EDQUOT: "the disk quota is exhausted",
  EROFS: "the file system is read-only",
  EIO: "an I/O error of the disk",
  EMFILE: "too many open files in this process",
  ENFILE: "too many open files in the system",
  ENXIO: "a socket or device, not a regular file",
  EBUSY: "the file is busy",
};

/**
 * Turns whatever a file system call threw into a typed store error: `@z` errors pass as
 * they are; names the file system cannot hold (too long, not encodable) become
 * {@link InvalidKeyError}; every other failure becomes an {@link FsError} naming the key, the
 * path and the cause.
 */
export function toStoreError(error: unknown, key: string, file: string, action: FsAction): Error {
  if (isZarrError(error)) return error;
  if ((error as { name?: unknown } | null)?.name === "AbortError") return new AbortError(error);
  const code = errorCode(error);
  if (code === "ENAMETOOLONG") {
    return new InvalidKeyError(
      key,
      "a name in it, or the whole path, is longer than the file system allows (ENAMETOOLONG)",
    );
  }
  if (code === "EILSEQ") {
    return new InvalidKeyError(key, "the file system cannot store this name (EILSEQ)");
  }
  const reason =
    (code !== undefined ? REASONS[code] : undefined) ??
    (error instanceof Error ? error.message : String(error));
  return new FsError(key, file, action, code ? `${reason} (${code})` : reason, {
    cause: error,
  });
}

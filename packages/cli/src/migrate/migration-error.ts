import { nameErrorClass, ZarrError } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    MigrationError: MigrationError;
  }
}

/**
 * A node of a v2 hierarchy that `zarr migrate` cannot give v3 metadata (an object data type, a
 * codec v3 has no equivalent for, a `zarr.json` already there). Raised while the migration is
 * planned, before anything is written; `path` names the node.
 */
export class MigrationError extends ZarrError {
  static {
    nameErrorClass(MigrationError, "MigrationError");
  }
  /** The node's path in the hierarchy (no leading slash). */
  declare readonly path: string;
  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(`Cannot migrate /${path} to Zarr v3: ${reason}`, { path, cause: options?.cause });
  }
}

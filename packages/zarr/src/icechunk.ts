import type { OpenRepositoryOptions, ReadonlySession, Repository } from "@z/store-icechunk";

/** Which snapshot an `icechunk+` location reads, besides the default (branch `main`). */
export interface IcechunkRefOptions {
  /**
   * A branch, a tag or a snapshot id, tried in that order: a branch of that name, else a tag of
   * that name, else a 20-character base 32 snapshot id. Default `main`.
   */
  ref?: string;
  /** The branch (`ref`, default `main`) as it was at this time: its newest snapshot no later. */
  asOf?: Date;
}

/** Options of {@link openIcechunk}. */
export interface OpenIcechunkOptions extends IcechunkRefOptions, OpenRepositoryOptions {}

/** An Icechunk repository opened at one snapshot by {@link openIcechunk}. */
export interface IcechunkCheckout {
  /** The repository: branches, tags, history. */
  repository: Repository;
  /** The read-only session on the snapshot the location and options name. */
  session: ReadonlySession;
}

/**
 * Opens the Icechunk repository an `icechunk+` location names (`icechunk+file:///data/repo`,
 * `icechunk+https://host/repo`, `icechunk+s3://bucket/prefix`, `icechunk+path/to/repo`) at a
 * snapshot: branch `main`, or `options.ref` / `options.asOf`, which take precedence over a
 * `#ref=…&asOf=…` suffix of the location. The Icechunk reader loads on first use, so apps that
 * never open a repository do not download it.
 * @example
 * ```ts
 * const { repository, session } = await openIcechunk("icechunk+https://example.org/repo", { ref: "v1" });
 * const arr = await openArray(session.store, { path: "temperature" });
 * ```
 * @throws StoreError for a location without `icechunk+` or with a malformed suffix; the
 *   Icechunk errors for a missing repository, ref or snapshot
 * @category Stores
 */
export async function openIcechunk(
  location: string,
  options: OpenIcechunkOptions = {},
): Promise<IcechunkCheckout> {
  const { checkoutLocation } = await import("./icechunk-location.js");
  return checkoutLocation(location, options);
}

// The `icechunk+` locations: loaded on first use, with the Icechunk reader it imports.
import { resolveStore, StoreError } from "@z/store-core";
import {
  decodeObjectId,
  IcechunkRefNotFoundError,
  openRepository,
  type Repository,
  type SessionTarget,
} from "@z/store-icechunk";
import type { IcechunkCheckout, IcechunkRefOptions, OpenIcechunkOptions } from "./icechunk.js";

const PREFIX = "icechunk+";

/** The repository's own location and the ref options of an `icechunk+<location>[#ref=…&asOf=…]`. */
export function parseIcechunkLocation(location: string): IcechunkRefOptions & { inner: string } {
  if (location.slice(0, PREFIX.length).toLowerCase() !== PREFIX)
    throw new StoreError(
      `${JSON.stringify(location)} is not an Icechunk location: write icechunk+ before the repository's location`,
    );
  const hash = location.indexOf("#");
  const inner = location.slice(PREFIX.length, hash < 0 ? undefined : hash);
  if (inner === "")
    throw new StoreError(`${JSON.stringify(location)} names no repository after icechunk+`);
  if (hash < 0) return { inner };
  const out: IcechunkRefOptions & { inner: string } = { inner };
  for (const [key, value] of new URLSearchParams(location.slice(hash + 1))) {
    if (key === "ref") out.ref = value;
    else if (key === "asOf") out.asOf = parseTime(value, location);
    else
      throw new StoreError(
        `Icechunk location ${JSON.stringify(location)}: unknown option ${JSON.stringify(key)} after # (ref and asOf are known)`,
      );
  }
  return out;
}

function parseTime(value: string, location: string): Date {
  const time = new Date(value);
  if (value === "" || Number.isNaN(time.getTime()))
    throw new StoreError(
      `Icechunk location ${JSON.stringify(location)}: asOf ${JSON.stringify(value)} is not a date and time (ISO 8601, such as 2024-05-01T12:00:00Z)`,
    );
  return time;
}

/**
 * What a ref names: a branch of that name, else a tag, else a snapshot id; `asOf` takes a
 * branch back in time (and names a branch only).
 * @throws IcechunkRefNotFoundError when it is none of these
 */
export async function refTarget(
  repository: Repository,
  ref: string,
  asOf?: Date,
): Promise<SessionTarget> {
  const notFound = (e: unknown) => {
    if (!(e instanceof IcechunkRefNotFoundError)) throw e;
    return undefined;
  };
  if ((await repository.lookupBranch(ref).catch(notFound)) !== undefined)
    return asOf === undefined ? { branch: ref } : { branch: ref, asOf };
  const asOfRefused = (what: string) =>
    new IcechunkRefNotFoundError(
      "branch",
      ref,
      `: it is ${what}, and asOf takes only a branch back in time`,
    );
  if ((await repository.lookupTag(ref).catch(notFound)) !== undefined) {
    if (asOf !== undefined) throw asOfRefused("a tag");
    return { tag: ref };
  }
  if (decodeObjectId(ref, 12) !== undefined) {
    if (asOf !== undefined) throw asOfRefused("a snapshot");
    return { snapshotId: ref };
  }
  throw new IcechunkRefNotFoundError(
    "branch",
    ref,
    ", nor a tag of that name, and it is not a 20-character base 32 snapshot id",
  );
}

/** Opens an `icechunk+` location's repository and a read-only session on its snapshot. */
export async function checkoutLocation(
  location: string,
  options: OpenIcechunkOptions = {},
): Promise<IcechunkCheckout> {
  const parsed = parseIcechunkLocation(location);
  const { ref = parsed.ref ?? "main", asOf = parsed.asOf, ...repositoryOptions } = options;
  const repository = await openRepository(await resolveStore(parsed.inner), repositoryOptions);
  const session = await repository.readonlySession(await refTarget(repository, ref, asOf));
  return { repository, session };
}

/** The store of an `icechunk+` location: its snapshot's hierarchy, read-only. */
export async function openIcechunkStore(location: string) {
  return (await checkoutLocation(location)).session.store;
}

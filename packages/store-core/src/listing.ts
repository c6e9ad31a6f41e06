import type { DirListing } from "./store.js";

/**
 * Groups keys that start with `prefix` into the keys directly under it and the sub-prefixes
 * below it. Stores that only know a flat key list build `listDir` with this.
 */
export function groupDirListing(keys: Iterable<string>, prefix: string): DirListing {
  const direct: string[] = [];
  const prefixes = new Set<string>();
  for (const key of keys) {
    if (!key.startsWith(prefix)) continue;
    const rest = key.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash === -1) direct.push(key);
    else prefixes.add(prefix + rest.slice(0, slash + 1));
  }
  return { keys: direct.sort(), prefixes: [...prefixes].sort() };
}

/** Collects an async iterable of keys into a sorted array. */
export async function collectKeys(keys: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const key of keys) out.push(key);
  return out.sort();
}

import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import type { DirListing } from "@z/store-core";
import { errorCode, isNoDirectory } from "./fs-errors.js";
import { isInside, isKeySegment } from "./paths.js";

/** A directory entry that is a key (`file`) or holds keys (`directory`). */
interface Entry {
  name: string;
  kind: "file" | "directory";
  /** The entry's real path, for directories reached through a symlink (cycle detection). */
  realPath?: string;
}

/**
 * The entries of one directory that belong in a listing: regular files and directories,
 * followed through symlinks that stay inside `realRoot`; temporary files, names that cannot be
 * key segments, broken links, links out of the root and special files are left out. Missing
 * directory (or a file in its place): none.
 */
async function readEntries(directory: string, realRoot: string): Promise<Entry[]> {
  let dirents: Dirent[];
  try {
    dirents = await readdir(directory, { withFileTypes: true });
  } catch (error) {
    if (isNoDirectory(error)) return [];
    throw error;
  }
  const entries: Entry[] = [];
  for (const dirent of dirents) {
    if (!isKeySegment(dirent.name)) continue;
    if (dirent.isFile()) entries.push({ name: dirent.name, kind: "file" });
    else if (dirent.isDirectory()) entries.push({ name: dirent.name, kind: "directory" });
    else if (dirent.isSymbolicLink()) {
      const entry = await followLink(path.join(directory, dirent.name), dirent.name, realRoot);
      if (entry !== undefined) entries.push(entry);
    }
  }
  return entries;
}

async function followLink(
  linkPath: string,
  name: string,
  realRoot: string,
): Promise<Entry | undefined> {
  try {
    const target = await stat(linkPath);
    if (!target.isFile() && !target.isDirectory()) return undefined;
    // A link out of the root is not part of the store: reads and writes refuse it too.
    const real = await realpath(linkPath);
    if (!isInside(realRoot, real)) return undefined;
    if (target.isFile()) return { name, kind: "file" };
    return { name, kind: "directory", realPath: real };
  } catch (error) {
    // A broken link, one that loops, or one too long to resolve, is not a key.
    const code = errorCode(error);
    if (!isNoDirectory(error) && code !== "ELOOP" && code !== "ENAMETOOLONG") throw error;
  }
  return undefined;
}

/**
 * The order keys sort in (UTF-16 code units). A directory sorts as its name followed by `/`,
 * which puts its keys exactly where they fall among the others: `c-` < `c.d/x` < `c/x`.
 */
function sortKey(entry: Entry): string {
  return entry.kind === "directory" ? `${entry.name}/` : entry.name;
}

function bySortKey(a: Entry, b: Entry): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Yields every key under `directory` (each prefixed with `keyPrefix`) in sorted order, reading
 * one directory at a time. Symlinked directories are followed while they stay inside
 * `realRoot`, except into a directory that is being walked already (a link cycle), which is
 * skipped. Nothing when `directory` is missing or lies outside the root.
 */
export async function* walkKeys(
  directory: string,
  keyPrefix: string,
  realRoot: string,
): AsyncGenerator<string> {
  const real = await realDirectory(directory, realRoot);
  if (real === undefined) return;
  yield* walk(directory, keyPrefix, [real], realRoot);
}

/** The real path of a directory to list; undefined when missing or outside the root. */
async function realDirectory(directory: string, realRoot: string): Promise<string | undefined> {
  let real: string;
  try {
    real = await realpath(directory);
  } catch (error) {
    if (isNoDirectory(error)) return undefined;
    throw error;
  }
  return isInside(realRoot, real) ? real : undefined;
}

/** @param chain real paths of the directories being walked, outermost first */
async function* walk(
  directory: string,
  keyPrefix: string,
  chain: readonly string[],
  realRoot: string,
): AsyncGenerator<string> {
  const entries = (await readEntries(directory, realRoot)).sort(bySortKey);
  for (const entry of entries) {
    if (entry.kind === "file") {
      yield keyPrefix + entry.name;
      continue;
    }
    // A plain subdirectory is new by construction; only a symlink can lead back up.
    const real = entry.realPath ?? path.join(chain[chain.length - 1], entry.name);
    if (entry.realPath !== undefined && chain.includes(real)) continue;
    yield* walk(
      path.join(directory, entry.name),
      `${keyPrefix}${entry.name}/`,
      [...chain, real],
      realRoot,
    );
  }
}

/**
 * The keys and sub-prefixes directly under `directory`, from one `readdir`; none when it is
 * missing or lies outside `realRoot`.
 */
export async function listDirectory(
  directory: string,
  keyPrefix: string,
  realRoot: string,
): Promise<DirListing> {
  const keys: string[] = [];
  const prefixes: string[] = [];
  if ((await realDirectory(directory, realRoot)) === undefined) return { keys, prefixes };
  for (const entry of await readEntries(directory, realRoot)) {
    if (entry.kind === "file") keys.push(keyPrefix + entry.name);
    else prefixes.push(`${keyPrefix}${entry.name}/`);
  }
  return { keys: keys.sort(), prefixes: prefixes.sort() };
}

import { createHash } from "node:crypto";
import { link, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { hostname } from "node:os";
import * as path from "node:path";
import { throwIfAborted } from "@z/store-core";
import { errorCode } from "./fs-errors.js";
import { tempName } from "./paths.js";

/**
 * A lock older than this (by its modification time) is taken to be left by a process that
 * died holding it, and is broken. A live writer holds its lock only while it checks a version
 * and writes one value, far less than this. (A lock whose holder, named in the file, was a
 * process of this machine that no longer runs is broken at once.)
 */
export const DEFAULT_STALE_LOCK_MS = 30_000;

/** How a lock file is taken. */
export interface LockFileOptions {
  /** Milliseconds after which a lock is broken as stale (default {@link DEFAULT_STALE_LOCK_MS}). */
  staleMs?: number;
  /** Stop waiting for the lock. */
  signal?: AbortSignal;
  /**
   * Creates the lock's folder when it is missing (for a write that creates the key). Without
   * it, a missing folder means the key cannot exist, and no lock is taken.
   */
  createDirectory?: (directory: string) => Promise<void>;
}

/**
 * The lock file of `file`: in the same folder, named like FsStore's temporary files
 * (`__z_tmp_<uuid>`, so listings skip it and no key can name it), the uuid digits derived
 * from the file's name so every process finds the same lock. The name has a fixed length
 * however long the key's name is.
 */
export function lockPathOf(file: string): string {
  const hex = createHash("sha1")
    .update(`lock\0${path.basename(file)}`)
    .digest("hex");
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
  return path.join(path.dirname(file), `__z_tmp_${uuid}`);
}

/**
 * Takes the lock of `file` (creates its lock file exclusively, waiting with a short growing
 * backoff while another writer holds it, and breaking a lock older than `staleMs`), and
 * resolves to the function that releases it; `undefined` when the file's folder does not
 * exist and `createDirectory` was not given.
 */
export async function acquireLockFile(
  file: string,
  options: LockFileOptions = {},
): Promise<(() => Promise<void>) | undefined> {
  const lock = lockPathOf(file);
  const staleMs = options.staleMs ?? DEFAULT_STALE_LOCK_MS;
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(options.signal);
    try {
      const handle = await open(lock, "wx");
      try {
        await handle.writeFile(HOLDER);
      } finally {
        await handle.close();
      }
      return () => unlink(lock).catch(() => {});
    } catch (error) {
      const code = errorCode(error);
      if (code === "ENOENT" || (code === "ENOTDIR" && !options.createDirectory)) {
        if (!options.createDirectory) return undefined;
        await options.createDirectory(path.dirname(lock));
        continue;
      }
      if (code !== "EEXIST") throw error;
    }
    if (await breakIfStale(lock, staleMs)) continue;
    await sleep(Math.min(50, 1 + attempt) * (0.5 + Math.random()));
  }
}

/** What a lock file holds: the holder's host and process id, so a dead holder can be told. */
const HOLDER = `${hostname()} ${process.pid}\n`;

/**
 * Whether the lock's holder is known to be dead: a process of this machine that no longer
 * runs. Holders on other machines (a shared network folder) are only timed out.
 */
async function holderIsDead(lock: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(lock, "utf8");
  } catch {
    return false;
  }
  const match = /^(.*) (\d+)\n$/.exec(text);
  if (!match || match[1] !== hostname()) return false; // still being written, or elsewhere
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return errorCode(error) === "ESRCH";
  }
}

/**
 * Removes the lock if its holder died or it is older than `staleMs`; resolves to whether the
 * lock is gone. The
 * lock is first renamed aside (atomic, so of several processes breaking it only one gets it)
 * and removed only if it is the very file found stale; a fresh lock taken meanwhile by another
 * writer is linked back in place.
 */
async function breakIfStale(lock: string, staleMs: number): Promise<boolean> {
  let found: Awaited<ReturnType<typeof stat>>;
  try {
    found = await stat(lock);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return true;
    throw error;
  }
  if (Date.now() - found.mtimeMs < staleMs && !(await holderIsDead(lock))) return false;
  const aside = path.join(path.dirname(lock), tempName());
  try {
    await rename(lock, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return true; // someone else broke (or released) it
    throw error;
  }
  const moved = await stat(aside);
  if (moved.ino !== found.ino || moved.mtimeMs !== found.mtimeMs) {
    // A writer took the lock between our check and the rename: give it back.
    await link(aside, lock).catch(() => {});
  }
  await unlink(aside).catch(() => {});
  return moved.ino === found.ino && moved.mtimeMs === found.mtimeMs;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

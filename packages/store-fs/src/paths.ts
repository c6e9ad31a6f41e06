import { randomUUID } from "node:crypto";
import { mkdir, realpath, stat } from "node:fs/promises";
import * as path from "node:path";
import { InvalidKeyError, validateKey, validatePrefix } from "@z/store-core";
import { type FsAction, isNoDirectory, OutsideRootError } from "./fs-errors.js";

/**
 * Temporary files are named `__z_tmp_<uuid>`. Zarr never uses such a name: metadata keys are
 * `zarr.json`, `.zarray`, `.zattrs`, `.zgroup`, `.zmetadata`, chunk keys are digits and `c`,
 * and node names may not start with `__`. Listings skip the pattern all the same, and keys with
 * a segment of that form are refused, so a leftover temporary file can never pass for a key.
 */
const TEMP_PREFIX = "__z_tmp_";
const TEMP_NAME = /^__z_tmp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A fresh, unique temporary file name. */
export function tempName(): string {
  return TEMP_PREFIX + randomUUID();
}

/** Whether a file name is one of FsStore's temporary files. */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && TEMP_NAME.test(name);
}

function checkNotTemp(keyOrPrefix: string): void {
  if (!keyOrPrefix.includes(TEMP_PREFIX)) return;
  for (const segment of keyOrPrefix.split("/")) {
    if (isTempName(segment)) {
      throw new InvalidKeyError(
        keyOrPrefix,
        `names like "${segment}" are FsStore's temporary files`,
      );
    }
  }
}

/** Validates a key by the store-core rules plus FsStore's reserved temporary file names. */
export function checkKey(key: string): string {
  validateKey(key);
  checkNotTemp(key);
  return key;
}

/** Validates a prefix by the store-core rules plus FsStore's reserved temporary file names. */
export function checkPrefix(prefix: string): string {
  validatePrefix(prefix);
  checkNotTemp(prefix);
  return prefix;
}

/**
 * The file path of a validated key or prefix under `root`. Keys always use `/`; each segment
 * becomes one path component, so the key rules (no `..`, `.`, empty segments, `\`, NUL) are
 * what keep the path inside the root on every platform.
 */
export function keyPath(root: string, key: string): string {
  if (key === "") return root;
  return path.join(root, ...key.split("/").filter((segment) => segment !== ""));
}

/** Whether a directory entry name can be part of a key (other files are not listed). */
export function isKeySegment(name: string): boolean {
  return (
    name !== "." &&
    name !== ".." &&
    !name.includes("\\") &&
    !name.includes("\0") &&
    !isTempName(name)
  );
}

/** Whether `real` is `realRoot` or lies below it (both real paths, without symlinks). */
export function isInside(realRoot: string, real: string): boolean {
  if (real === realRoot) return true;
  const base = realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep;
  return real.startsWith(base);
}

/**
 * The real path of a store's root, looked up on first use and kept: every check of a real
 * path against the root compares with it (the root itself may be a symlink, `/tmp` on macOS).
 */
export class RootPath {
  #real: string | undefined;
  /**
   * Real paths of folders already resolved and found inside the root, by lexical path, and
   * whether they are direct: no symlink below the root on the way (the real path is the
   * root's real path joined with the same names).
   */
  readonly #folders = new Map<string, { real: string; direct: boolean }>();

  /** @param root the root as given (absolute) */
  constructor(readonly root: string) {}

  /** The root's real path; rejects like `realpath` when the root does not exist. */
  async real(): Promise<string> {
    this.#real ??= await realpath(this.root);
    return this.#real;
  }

  /**
   * The real path of `file` (symlinks followed), or undefined when it does not exist.
   * @throws OutsideRootError when it leads outside the root
   */
  async resolve(file: string, key: string, action: FsAction): Promise<string | undefined> {
    let real: string;
    try {
      real = await realpath(file);
    } catch (error) {
      if (isNoDirectory(error)) return undefined;
      throw error;
    }
    await this.check(real, key, action);
    return real;
  }

  /**
   * The real path of `file`'s folder joined with its name (the name itself not resolved), or
   * undefined when the folder does not exist or leads outside the root (the caller then
   * resolves the whole path with {@link resolve}). The folder's real path is looked up once and
   * kept: a chunk read then costs no `realpath` (a system call per path component).
   *
   * Why this keeps reads inside the root: the kept path was real (no symlinks) and inside the
   * root when it was resolved, and the caller opens the name in it with `O_NOFOLLOW`, so a
   * symlink at the name is never followed unchecked (the caller resolves it in full instead,
   * see `resolve`). What a kept path does not see is a folder that another program replaces
   * by a symlink after this store resolved it: where the system tells the real path of an
   * open file (Linux, `/proc/self/fd`), the caller checks it before reading a byte, which also
   * closes the race a `realpath` per read had (a swap between the check and the open passed
   * it); elsewhere the check is the one made when the folder was first resolved. The store
   * itself never creates links. Kept paths are dropped by {@link forget} (every delete
   * does) and when a read through one finds nothing (the folder may have been replaced).
   */
  async resolveInFolder(file: string, key: string, action: FsAction): Promise<string | undefined> {
    const folder = path.dirname(file);
    // A name in the root itself is inside whatever the root leads to (the user's chosen place).
    if (folder === this.root) return file;
    let real = this.#folders.get(folder)?.real;
    if (real === undefined) {
      try {
        real = await this.resolve(folder, key, action);
      } catch (error) {
        // The caller resolves the whole path then: a missing key reads as missing even
        // through a link out of the root, an existing one is refused.
        if (error instanceof OutsideRootError) return undefined;
        throw error;
      }
      if (real === undefined) return undefined;
      this.keep(folder, real);
    }
    return path.join(real, path.basename(file));
  }

  /** Keeps the real path of a folder just resolved (or created) and found inside the root. */
  keep(folder: string, real: string): void {
    // Bounded: chunk folders are few, but keys are unbounded.
    if (this.#folders.size >= MAX_KEPT_FOLDERS) this.#folders.clear();
    const direct =
      this.#real !== undefined && real === path.join(this.#real, path.relative(this.root, folder));
    this.#folders.set(folder, { real, direct });
  }

  /**
   * Whether `file`'s folder has a kept real path (see {@link resolveInFolder}), which a read
   * through it checks again where it can.
   */
  knowsFolderOf(file: string): boolean {
    return this.#folders.has(path.dirname(file));
  }

  /**
   * The kept real path of `folder` when it is direct (no symlink below the root on the way when
   * it was resolved), else undefined. Opening a name in a direct folder's path walks the same
   * folders as opening the key's own path would: nothing there is stale, a missing file is
   * missing, and what remains to check is where the opened file really is (a folder may have
   * been swapped for a link since), which the caller does on the open file.
   */
  directFolder(folder: string): string | undefined {
    if (folder === this.root) return this.root;
    const kept = this.#folders.get(folder);
    return kept?.direct ? kept.real : undefined;
  }

  /** Drops the kept folder paths, or the one of `file`'s folder, when they may be stale. */
  forget(file?: string): void {
    if (file === undefined) this.#folders.clear();
    else this.forgetFolder(path.dirname(file));
  }

  /** Drops the kept path of a folder. */
  forgetFolder(folder: string): void {
    this.#folders.delete(folder);
  }

  /**
   * The real path of a folder that a write or delete will change, created if missing (with
   * `create`): its deepest existing ancestor is resolved and checked first, so `mkdir` never
   * runs through a symlink that leads out of the root.
   * @throws OutsideRootError when the folder is, or would be, outside the root
   */
  async resolveDirectory(
    directory: string,
    key: string,
    action: FsAction,
    create: boolean,
  ): Promise<string | undefined> {
    if (!create) return this.resolve(directory, key, action);
    const missing: string[] = [];
    let at = directory;
    let real: string | undefined;
    for (;;) {
      // One stat per level finds the deepest existing ancestor (a realpath per level would
      // cost the square of the depth); only that ancestor is resolved and checked.
      if (await exists(at)) real = await this.resolve(at, key, action);
      if (real !== undefined) break;
      if (at === this.root || !isInside(this.root, at)) {
        // The root itself is missing: it is the user's chosen place, created as given.
        await mkdir(this.root, { recursive: true });
        real = await this.real();
        break;
      }
      missing.push(path.basename(at));
      at = path.dirname(at);
    }
    if (missing.length === 0) return real;
    const target = path.join(real, ...missing.reverse());
    await mkdir(target, { recursive: true });
    return this.resolve(target, key, action);
  }

  /**
   * Checks a real path against the root.
   * @throws OutsideRootError when it is outside
   */
  async check(real: string, key: string, action: FsAction): Promise<void> {
    const root = await this.real();
    if (!isInside(root, real)) throw new OutsideRootError(key, real, root, action);
  }
}

/** The most folder paths a store keeps resolved (then it starts over). */
const MAX_KEPT_FOLDERS = 4096;

/** Whether a path exists (links followed); a missing part of it means no. */
async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch (error) {
    if (isNoDirectory(error)) return false;
    throw error;
  }
}

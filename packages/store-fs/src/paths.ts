import { randomUUID } from "node:crypto";
import * as path from "node:path";
import { InvalidKeyError, validateKey, validatePrefix } from "@z/store-core";

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

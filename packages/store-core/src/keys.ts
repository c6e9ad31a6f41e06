import { InvalidKeyError } from "./errors.js";

/**
 * Checks a store key against the rules every store enforces: a non-empty string without a
 * leading or trailing `/`, without empty, `.` or `..` segments, backslashes or NUL characters.
 * These rules are what keep a store from reading or writing outside its root.
 * @returns the key itself, so calls can be chained
 * @throws InvalidKeyError when the key breaks a rule
 */
export function validateKey(key: string): string {
  if (typeof key !== "string") throw new InvalidKeyError(String(key), "a key must be a string");
  if (key.length === 0) throw new InvalidKeyError(key, "a key must not be empty");
  if (key.startsWith("/")) throw new InvalidKeyError(key, "a key must not start with '/'");
  if (key.endsWith("/")) throw new InvalidKeyError(key, "a key must not end with '/'");
  checkCharacters(key);
  for (const segment of key.split("/")) checkSegment(key, segment);
  return key;
}

/**
 * Checks a listing prefix: `""` (the root) or a valid key followed by `/`.
 * @throws InvalidKeyError when the prefix breaks a rule
 */
export function validatePrefix(prefix: string): string {
  if (prefix === "") return prefix;
  if (!prefix.endsWith("/")) {
    throw new InvalidKeyError(prefix, "a prefix must be empty or end with '/'");
  }
  validateKey(prefix.slice(0, -1));
  return prefix;
}

function checkCharacters(key: string): void {
  if (key.includes("\\")) throw new InvalidKeyError(key, "backslashes are not allowed");
  if (key.includes("\0")) throw new InvalidKeyError(key, "NUL characters are not allowed");
}

function checkSegment(key: string, segment: string): void {
  if (segment === "") throw new InvalidKeyError(key, "empty path segments are not allowed");
  if (segment === "." || segment === "..") {
    throw new InvalidKeyError(key, `'${segment}' segments are not allowed`);
  }
}

/**
 * The most levels a node path may have. Creating or opening a node touches every level above
 * it (parent groups are read, created, checked inside the store's root), so the work grows with
 * the square of the depth; real hierarchies are a few levels deep, and a path of thousands of
 * levels is an error rather than minutes of I/O.
 */
export const MAX_NODE_PATH_DEPTH = 100;

/**
 * Normalises a node path as users write it (`"/a/b/"`, `"a/b"`, `""`, `"/"`) to the store form
 * without leading or trailing slashes (`"a/b"`, `""` for the root), validating each segment.
 * No segment may be `zarr.json` (a rule of the Zarr v3 core spec): a node of that name would
 * have its key prefix collide with its parent's metadata document.
 * @throws InvalidKeyError for an invalid segment, a `zarr.json` segment, or more than
 *   {@link MAX_NODE_PATH_DEPTH} levels
 */
export function normalizePath(path: string | undefined): string {
  if (path === undefined) return "";
  if (typeof path !== "string") {
    // JavaScript callers can pass anything; name it without calling into the value.
    const shown = ["number", "bigint", "boolean"].includes(typeof path) ? String(path) : "";
    throw new InvalidKeyError(shown, `a node path must be a string, not a ${typeof path}`);
  }
  const trimmed = path.replace(/^\/+/, "").replace(/\/+$/, "");
  if (trimmed === "") return "";
  const key = validateKey(trimmed);
  const depth = key.split("/").length;
  if (depth > MAX_NODE_PATH_DEPTH) {
    throw new InvalidKeyError(
      `${key.slice(0, 40)}...`,
      `a node path may have at most ${MAX_NODE_PATH_DEPTH} levels; this one has ${depth}`,
    );
  }
  if (key.split("/").includes("zarr.json")) {
    throw new InvalidKeyError(
      key,
      "no node may be named 'zarr.json' (the metadata document's key)",
    );
  }
  return key;
}

/** Joins a node path and a key relative to it (`joinKey("a/b", "zarr.json")` is `"a/b/zarr.json"`). */
export function joinKey(path: string, key: string): string {
  if (path === "") return key;
  if (key === "") return path;
  return `${path}/${key}`;
}

/** The prefix under which a node's keys live: `""` for the root, `"a/b/"` otherwise. */
export function prefixOf(path: string): string {
  return path === "" ? "" : `${path}/`;
}

/**
 * The listing prefix of a "folder" as zarr-python's prefix methods take it: `""` stays the
 * root, `"a/b"` and `"a/b/"` both become `"a/b/"`, so `"a"` never matches the key `"ab"`.
 * @throws InvalidKeyError when the prefix breaks the key rules
 */
export function folderPrefix(prefix = ""): string {
  if (prefix === "") return prefix;
  return validatePrefix(prefix.endsWith("/") ? prefix : `${prefix}/`);
}

/**
 * Keys every store must refuse with `InvalidKeyError`: path escapes, absolute paths, empty,
 * `.` and `..` segments, backslashes (a separator on Windows), NUL (truncates C strings) and
 * trailing slashes.
 */
export const HOSTILE_KEYS: readonly string[] = [
  "../x",
  "..",
  "a/../b",
  "a/..",
  "../../../../../../tmp/x",
  "/abs",
  "/",
  "a//b",
  "a\\b",
  "..\\x",
  "\\abs",
  "a\0b",
  "x\0",
  "",
  ".",
  "./a",
  "a/./b",
  "a/.",
  "a/",
  "a/b/",
];

/** Listing and delete prefixes every store must refuse: the same escapes, or no trailing `/`. */
export const HOSTILE_PREFIXES: readonly string[] = [
  "../",
  "a/../",
  "/",
  "/a/",
  "//",
  "a//",
  "./",
  "a/./",
  "a\\b/",
  "a\0/",
  "a",
  "a/b",
];

/**
 * Valid keys a careless store could turn a hostile key into (by resolving `..`, dropping empty
 * segments, treating `\` as a separator or stopping at NUL): none of them may appear after the
 * hostile writes are refused.
 */
export const ESCAPE_TARGETS: readonly string[] = ["x", "b", "abs", "a", "a/b", "ab", "tmp/x"];

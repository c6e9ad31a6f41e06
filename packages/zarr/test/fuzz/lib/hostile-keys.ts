import fc from "fast-check";

/**
 * Hostile keys and node paths: `..` and `.` segments, absolute paths (some pointing into the
 * watched temporary folder, written `{OUTSIDE}`), NUL, backslashes and drive letters, empty
 * segments, very long keys, odd Unicode (lone surrogates, right-to-left marks, fullwidth dots).
 */

const SPECIAL = [
  "..",
  ".",
  "../x",
  "../../x",
  "../../../sentinel.txt",
  "a/../../x",
  "a/./b",
  "./zarr.json",
  "/abs",
  "/etc/passwd",
  "{OUTSIDE}/abs-escape",
  "//x",
  "a//b",
  "a/",
  "/",
  "",
  "\\",
  "..\\..\\x",
  "a\\b",
  "C:\\x",
  "C:/x",
  "c:",
  "a\u0000b",
  "\u0000",
  "%2e%2e/x",
  "\uff0e\uff0e/x",
  "\u2024\u2024/x",
  "a/\u202e",
  "\ud800",
  "\udfff/a",
  "é/ü",
  "🚀",
  "CON",
  "nul",
  " ",
  "a ",
  "~/x",
  "$HOME/x",
  "*",
  "?",
  "a:b",
  "zarr.json",
  ".zarray",
  "c/0",
  "a/zarr.json/b",
  "__proto__",
  "constructor",
  "x".repeat(255),
  "x".repeat(256),
  "x".repeat(5000),
  `${"a/".repeat(300)}x`,
  `${"../".repeat(40)}tmp/x`,
];

const SEGMENTS = [
  "..",
  ".",
  "",
  "a",
  "b",
  "\\",
  "\u0000",
  "é",
  "x".repeat(300),
  "zarr.json",
  "c",
  "0",
  " ",
];

/** A hostile key (or path). */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...SPECIAL) },
  {
    weight: 3,
    arbitrary: fc
      .array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 6 })
      .map((s) => s.join("/")),
  },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((s) => `../${s}`) },
);

/** Replaces the `{OUTSIDE}` marker with a real folder. */
export function resolveKey(key: string, outside: string): string {
  return key.replaceAll("{OUTSIDE}", outside);
}

/** What a case does with the key. */
export const KEY_OPERATIONS = [
  "get",
  "getRange",
  "has",
  "set",
  "setIfNotExists",
  "delete",
  "deletePrefix",
  "listPrefix",
  "listDir",
  "createArray",
  "createGroup",
  "open",
  "groupChild",
] as const;

/** One of the operations. */
export type KeyOperation = (typeof KEY_OPERATIONS)[number];

/** A case: a few operations, each with a hostile key. */
export interface KeyCase {
  steps: { operation: KeyOperation; key: string }[];
}

/** Key cases. */
export const keyCase: fc.Arbitrary<KeyCase> = fc.record({
  steps: fc.array(fc.record({ operation: fc.constantFrom(...KEY_OPERATIONS), key: hostileKey }), {
    minLength: 1,
    maxLength: 3,
  }),
});

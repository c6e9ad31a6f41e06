// Which @z/zarrita module answers each zarrita module that zarrita's compiled tests import
// (paths relative to zarrita's dist/src). Internal modules with no public counterpart (its
// codec classes, indexer, setter) are not here: their tests are excluded in exclusions.ts.

/** zarrita module (relative to its `dist/src`) -> file of this package (relative to it). */
export const moduleMap: Record<string, string> = {
  "index.js": "src/index.ts",
  "errors.js": "src/errors.ts",
  "hierarchy.js": "src/hierarchy.ts",
  "open.js": "src/open.ts",
  "create.js": "src/create.ts",
  "typedarray.js": "src/typedarray.ts",
  // `get` and `set` of zarrita's index are these modules' exports.
  "indexing/ops.js": "src/indexing.ts",
  "extension/caching.js": "src/caching.ts",
  "extension/consolidation.js": "src/consolidation.ts",
  "extension/range-coalescing.js": "src/range-coalescing.ts",
  "extension/define.js": "src/extensions.ts",
  "extension/define-array.js": "src/extensions.ts",
  "extension/extend-array.js": "src/extensions.ts",
  "extension/extend-store.js": "src/extensions.ts",
  // Public functions (slice, select, isDataType, getStrides) and the tests' own helpers.
  "util.js": "test/zarrita-suite/util-counterparts.ts",
  "indexing/util.js": "test/zarrita-suite/util-counterparts.ts",
};

/**
 * Internal modules a test file imports alongside public ones, resolved to an empty module so
 * the file's public tests run (the tests of the internal class are excluded one by one).
 */
export const absentModules: Record<string, string> = {
  "codecs/transpose.js": "zarrita's TransposeCodec class",
};

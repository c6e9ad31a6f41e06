// zarrita 0.7.5's tests that do not apply to @z/zarrita, with the reason for each. A file
// listed whole is collected with every test skipped (so it is counted); a describe block or a
// test is named by its title as written in the source (for `.each`, the title template). The
// suite's config fails when a listed title is not in its file exactly once, so this list cannot
// go stale.

/** Test files (relative to zarrita's dist/__tests__) excluded whole, with the reason. */
export const excludedFiles: Record<string, string> = {
  "bytes.test.js":
    "tests zarrita's internal BytesCodec class, which has no counterpart in its public API (the @z stack's codecs are tested in @z/codecs; reads through these codecs are covered by open.test.js and indexing/get.test.js)",
  "cast_value.test.js":
    "tests zarrita's internal CastValueCodec class, which has no counterpart in its public API (the @z stack's codecs are tested in @z/codecs; reads through these codecs are covered by open.test.js and indexing/get.test.js)",
  "codecs.test.js":
    "tests zarrita's internal ShuffleCodec class, which has no counterpart in its public API (the @z stack's codecs are tested in @z/codecs; reads through these codecs are covered by open.test.js and indexing/get.test.js)",
  "delta.test.js":
    "tests zarrita's internal DeltaCodec class, which has no counterpart in its public API (the @z stack's codecs are tested in @z/codecs; reads through these codecs are covered by open.test.js and indexing/get.test.js)",
  "json2.test.js":
    "tests zarrita's internal JsonCodec class, which has no counterpart in its public API (the @z stack's codecs are tested in @z/codecs; reads through these codecs are covered by open.test.js and indexing/get.test.js)",
  "scale_offset.test.js":
    "tests zarrita's internal ScaleOffsetCodec class, which has no counterpart in its public API (the @z stack's codecs are tested in @z/codecs; reads through these codecs are covered by open.test.js and indexing/get.test.js)",
  "indexing/indexer.test.js":
    "tests zarrita's internal BasicIndexer and selection normalisers, which have no counterpart in its public API (@z/indexing has its own property tests)",
  "indexing/setter.test.js":
    "tests zarrita's internal `setter` (the element copier behind get/set, built on ndarray), which has no counterpart in its public API",
  "get-types.test.js":
    "every test asserts the TypeScript type of a result (tintype snapshots): compiled tests carry no types, and tintype is not published; @z/zarrita's own tests check these types with expectTypeOf under tsc",
  "public-api.test.js":
    "imports the zarrita package itself (not ../src), so it checks zarrita's export list, not ours; @z/zarrita's public-api.test.ts checks that it exports the same names less the internal hooks",
};

/** Describe blocks excluded, per file, with the reason. */
export const excludedBlocks: Record<string, Record<string, string>> = {
  "util.test.js": {
    getCtr:
      "tests zarrita's internal getCtr (data type -> container class); @z/zarrita converts the stack's containers to zarrita's at the API's edge",
    byteswapInplace:
      "tests zarrita's internal byteswapInplace; byte order is @z/ndarray's (tested there)",
    getStrides:
      "tests zarrita's internal getStrides (exported only as `_zarrita_internal_getStrides` for @zarrita/ndarray)",
    ensureCorrectScalar:
      "tests zarrita's internal fill-value coercion of its own metadata objects; the @z stack parses fill values in @z/metadata",
    v2ToV3ArrayMetadata:
      "tests zarrita's internal v2 -> v3 metadata converter; the @z stack reads v2 metadata natively (@z/metadata)",
  },
  "indexing/util.test.js": {
    "slice indices":
      "tests sliceIndices, zarrita's internal slice normaliser (exported only as `_zarrita_internal_sliceIndices` for @zarrita/ndarray); @z/indexing normalises slices itself",
    range:
      "tests `range`, a generator of zarrita's internal util module that its tests use to build expected values (the suite gives the tests their own)",
  },
};

/** Single tests excluded, per file, with the reason. */
export const excludedTests: Record<string, Record<string, string>> = {
  "hierarchy.test.js": {
    "Array.is narrows number":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows bigint":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows boolean":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows string":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows object":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact int8":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact int16":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact int32":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact int64":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact uint8":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact uint16":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact uint32":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact uint64":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact float32":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact float64":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows exact bool":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows from NumberDataType to exact dtype":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "Array.is narrows from BigintDataType to exact dtype":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
  },
  "extension-types.test.js": {
    "no extension returns store as-is":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "direct form in pipeline":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "no-config extension can be passed uncalled":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "simple: extensions appear, store methods preserved":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "chaining preserves store through wrappers":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
    "extensions appear, concrete D/S are preserved":
      "asserts the TypeScript type inferred for the result (a tintype snapshot): compiled tests carry no types (tintype is not published either); @z/zarrita's own tests check these types with expectTypeOf under tsc",
  },
  "indexing/util.test.js": {
    "sliceIndices(slice(null), 10)":
      "tests sliceIndices, zarrita's internal slice normaliser (exported only as `_zarrita_internal_sliceIndices` for @zarrita/ndarray); @z/indexing normalises slices itself",
    "sliceIndices(slice(3, 15, 2), 10)":
      "tests sliceIndices, zarrita's internal slice normaliser (exported only as `_zarrita_internal_sliceIndices` for @zarrita/ndarray); @z/indexing normalises slices itself",
    "sliceIndices(slice(3, 15, 2), 30)":
      "tests sliceIndices, zarrita's internal slice normaliser (exported only as `_zarrita_internal_sliceIndices` for @zarrita/ndarray); @z/indexing normalises slices itself",
    "sliceIndices(slice(40), 4)":
      "tests sliceIndices, zarrita's internal slice normaliser (exported only as `_zarrita_internal_sliceIndices` for @zarrita/ndarray); @z/indexing normalises slices itself",
    "sliceIndices(slice(40), 41)":
      "tests sliceIndices, zarrita's internal slice normaliser (exported only as `_zarrita_internal_sliceIndices` for @zarrita/ndarray); @z/indexing normalises slices itself",
  },
  "transpose.test.js": {
    "encodes a chunk that is not already in the target layout":
      "tests zarrita's internal TransposeCodec class directly, which has no counterpart in its public API (the file's reads and writes of transposed arrays run)",
    "encodes a chunk backed by %s":
      "tests zarrita's internal TransposeCodec class directly, which has no counterpart in its public API (the file's reads and writes of transposed arrays run)",
  },
  "open.test.js": {
    "3d.contiguous.transpose.i4":
      "its fixture (v3/data.zarr/3d.contiguous.transpose.i4) is not in the shared fixtures folder",
  },
  "indexing/slice.test.js": {
    "Does not support negative indices":
      "checks that zarrita refuses negative slice steps; the @z stack supports them as NumPy does (slice(null, null, -2) reads backwards)",
  },
};

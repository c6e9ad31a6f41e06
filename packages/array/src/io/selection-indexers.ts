/**
 * The indexers of the orthogonal, point, mask, block and mixed selection modes. `ZarrArray` loads this
 * module on first use of one of those modes, so an app that reads slices only (most viewers)
 * does not download them: see the first-load budget in
 * packages/zarr/test/bundlers/sizes.test.ts.
 */
export { blockIndexer, CoordinateIndexer, OrthogonalIndexer } from "@z/indexing";
export { indexerFor } from "./any-selection.js";

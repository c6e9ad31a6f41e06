// The umbrella's open and create functions: the ones of @z/array, bound here so that using any
// of them brings the umbrella's registrations (extensions.ts). Bundlers drop a bare
// `import "./extensions.js"` from a module whose own exports go unused, and a barrel of
// re-exports has none, so the registrations hang on these bindings, which every app that opens
// or creates a node uses. Everything else of @z/zarr is a plain re-export that tree-shakes.
// (Named imports, not `import * as`: a namespace of a barrel defeats tree-shaking in esbuild.)
import {
  consolidateMetadata as array_consolidateMetadata,
  createArray as array_createArray,
  createGroup as array_createGroup,
  createHierarchy as array_createHierarchy,
  createNodes as array_createNodes,
  empty as array_empty,
  emptyLike as array_emptyLike,
  fromArray as array_fromArray,
  full as array_full,
  fullLike as array_fullLike,
  ones as array_ones,
  onesLike as array_onesLike,
  open as array_open,
  openArray as array_openArray,
  openConsolidated as array_openConsolidated,
  openGroup as array_openGroup,
  zeros as array_zeros,
  zerosLike as array_zerosLike,
} from "@z/array";
import "./extensions.js";

/** Opens the array or group at a path; see `open` of @z/array. @category Open and create */
export const open: typeof array_open = array_open;
/** Opens the array at a path; see `openArray` of @z/array. @category Open and create */
export const openArray: typeof array_openArray = array_openArray;
/** Opens the group at a path; see `openGroup` of @z/array. @category Open and create */
export const openGroup: typeof array_openGroup = array_openGroup;
/** Opens a group through its consolidated metadata; see `openConsolidated` of @z/array. @category Open and create */
export const openConsolidated: typeof array_openConsolidated = array_openConsolidated;
/** Creates an array; see `createArray` of @z/array. @category Open and create */
export const createArray: typeof array_createArray = array_createArray;
/** Creates a group; see `createGroup` of @z/array. @category Open and create */
export const createGroup: typeof array_createGroup = array_createGroup;
/** Creates a hierarchy; see `createHierarchy` of @z/array. @category Open and create */
export const createHierarchy: typeof array_createHierarchy = array_createHierarchy;
/** Creates nodes; see `createNodes` of @z/array. @category Open and create */
export const createNodes: typeof array_createNodes = array_createNodes;
/** Writes consolidated metadata; see `consolidateMetadata` of @z/array. @category Open and create */
export const consolidateMetadata: typeof array_consolidateMetadata = array_consolidateMetadata;
/** An array of zeros; see `zeros` of @z/array. @category Open and create */
export const zeros: typeof array_zeros = array_zeros;
/** An array of ones; see `ones` of @z/array. @category Open and create */
export const ones: typeof array_ones = array_ones;
/** An array of one value; see `full` of @z/array. @category Open and create */
export const full: typeof array_full = array_full;
/** An array without written chunks; see `empty` of @z/array. @category Open and create */
export const empty: typeof array_empty = array_empty;
/** Zeros shaped like another array; see `zerosLike` of @z/array. @category Open and create */
export const zerosLike: typeof array_zerosLike = array_zerosLike;
/** Ones shaped like another array; see `onesLike` of @z/array. @category Open and create */
export const onesLike: typeof array_onesLike = array_onesLike;
/** One value shaped like another array; see `fullLike` of @z/array. @category Open and create */
export const fullLike: typeof array_fullLike = array_fullLike;
/** Unwritten, shaped like another array; see `emptyLike` of @z/array. @category Open and create */
export const emptyLike: typeof array_emptyLike = array_emptyLike;
/** An array from in-memory data; see `fromArray` of @z/array. @category Open and create */
export const fromArray: typeof array_fromArray = array_fromArray;

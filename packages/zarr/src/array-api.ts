// @z/array as the umbrella exports it: its open and create functions come from registered.ts,
// which brings the umbrella's registrations with them. The explicit exports win over the
// `export *`. They live here rather than in index.ts on purpose: esbuild's code splitting puts
// every module that a barrel with its own exports re-exports, and that a lazy chunk also uses,
// into the first load; index.ts stays a list of `export *` so that codecs and data types that
// load on first use stay out of it (test/bundlers/sizes.test.ts measures this).
export * from "@z/array";
export {
  consolidateMetadata,
  createArray,
  createGroup,
  createHierarchy,
  createNodes,
  empty,
  emptyLike,
  fromArray,
  full,
  fullLike,
  ones,
  onesLike,
  open,
  openArray,
  openGroup,
  zeros,
  zerosLike,
} from "./registered.js";

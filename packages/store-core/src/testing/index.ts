/**
 * The store contract test suite: `describeStoreContract` registers the vitest tests every
 * store must pass, comparing it with the reference `MapStore`. Needs `vitest` and
 * `fast-check` (optional peer dependencies, only for this entry point).
 * @packageDocumentation
 */
export { describeStoreContract } from "./contract.js";
export {
  abortedSignal,
  allByteValues,
  collect,
  expectBytes,
  expectFailure,
  fillStore,
  patternBytes,
} from "./helpers.js";
export { ESCAPE_TARGETS, HOSTILE_KEYS, HOSTILE_PREFIXES } from "./hostile-keys.js";
export type { MakeStore, StoreContractOptions } from "./options.js";
export { seedEntries } from "./seed.js";

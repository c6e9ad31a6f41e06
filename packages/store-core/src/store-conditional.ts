// Shared inside the @z packages, not public: the conditional-write check, kept out of store.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
import type { Readable, Writable } from "./store.js";
import { isWritable } from "./store.js";

/** Whether a store offers versioned reads and conditional writes. */
export function hasConditionalWrites(
  store: Readable,
): store is Readable & Writable & Required<Pick<Readable, "getVersioned">> {
  return (
    isWritable(store) &&
    (store as Partial<Writable>).conditionalWrites === true &&
    typeof store.getVersioned === "function"
  );
}

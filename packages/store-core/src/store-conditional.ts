// The conditional-write check: private to the @z packages. store.ts holds the public side, which the
// package entry re-exports whole.
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

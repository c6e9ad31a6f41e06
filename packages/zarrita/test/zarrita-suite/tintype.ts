// zarrita's tests assert TypeScript types with `tintype` (compile-time snapshots of inferred
// types), which is not published: a compiled test has no types left to check. A bare
// `expectType(value)` checks nothing at run time; a type snapshot cannot be checked here, so
// it fails loudly, and the tests that use one are listed in exclusions.ts.

/** `expectType(value)`: nothing to check at run time; a snapshot of its type throws. */
export function expectType(_value: unknown): { toMatchInlineSnapshot(snapshot: string): never } {
  return {
    toMatchInlineSnapshot(snapshot: string): never {
      throw new Error(`type snapshots cannot be checked on compiled tests (${snapshot})`);
    },
  };
}

import * as ours from "@z/zarrita";
import { expect, test } from "vitest";
import * as zarrita from "zarrita";

// zarrita's exports that @z/zarrita does not offer, and why: the `_zarrita_internal_*` hooks
// exist for @zarrita/ndarray, and `registry` is zarrita's map of its own codec classes (codecs
// of the @z stack register with `registerCodec` of @z/codecs).
const NOT_OFFERED = new Set([
  "_zarrita_internal_get",
  "_zarrita_internal_getStrides",
  "_zarrita_internal_set",
  "_zarrita_internal_sliceIndices",
  "registry",
]);

test("@z/zarrita exports every name zarrita exports, less its internal hooks and codec registry", () => {
  const wanted = Object.keys(zarrita).filter((name) => !NOT_OFFERED.has(name));
  expect(Object.keys(ours).sort()).toEqual(wanted.sort());
  for (const name of NOT_OFFERED) expect(Object.keys(zarrita)).toContain(name);
});

test("the exports are of the kind zarrita's are (classes, functions)", () => {
  for (const name of Object.keys(ours)) {
    const theirs = (zarrita as Record<string, unknown>)[name];
    expect(typeof (ours as Record<string, unknown>)[name], name).toBe(typeof theirs);
  }
});

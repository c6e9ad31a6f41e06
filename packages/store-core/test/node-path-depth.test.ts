import { InvalidKeyError, MAX_NODE_PATH_DEPTH, normalizePath } from "@z/store-core";
import { describe, expect, it } from "vitest";

describe("node path depth", () => {
  const path = (levels: number) => Array.from({ length: levels }, () => "a").join("/");

  it("takes paths up to the limit", () => {
    expect(normalizePath(`/${path(MAX_NODE_PATH_DEPTH)}/`)).toBe(path(MAX_NODE_PATH_DEPTH));
  });

  it("refuses a deeper path with an InvalidKeyError that gives the depth", () => {
    const error = (() => {
      try {
        normalizePath(path(300));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(InvalidKeyError);
    expect(String(error)).toMatch(/at most 100 levels; this one has 300/);
  });
});

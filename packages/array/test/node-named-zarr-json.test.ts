// The Zarr v3 core spec forbids a node named `zarr.json`: its key prefix would collide with its
// parent's metadata document. Every way of naming a node refuses such a path, naming it, and
// nothing is written to the store.
import {
  createArray,
  createGroup,
  createHierarchy,
  open,
  openArray,
  openGroup,
  ZarrGroup,
} from "@z/array";
import { MetadataError, validateNodeName } from "@z/metadata";
import { InvalidKeyError, normalizePath } from "@z/store-core";
import { describe, expect, it } from "vitest";

const badPaths = ["zarr.json", "a/zarr.json", "a/zarr.json/b", "/zarr.json/", "x/y/zarr.json"];

describe("a node named zarr.json", () => {
  it("is refused by normalizePath with the path in the message", () => {
    for (const path of badPaths) {
      const trimmed = path.replace(/^\/|\/$/g, "");
      expect(() => normalizePath(path)).toThrow(InvalidKeyError);
      expect(() => normalizePath(path)).toThrow(`"${trimmed}"`);
      expect(() => normalizePath(path)).toThrow(/zarr\.json/);
    }
  });

  it("is refused by validateNodeName", () => {
    expect(() => validateNodeName("zarr.json")).toThrow(MetadataError);
    expect(() => validateNodeName("zarr.json")).toThrow(/"zarr\.json".*metadata document/);
  });

  it("leaves names that only resemble it alone", () => {
    for (const path of ["zarr.jsonx", "a/zarr.json5", "Zarr.json/b", "a/.zarr.json", "zarr/json"]) {
      expect(normalizePath(path)).toBe(path);
    }
    expect(validateNodeName("zarr.json.bak")).toBe("zarr.json.bak");
  });

  it("cannot be created as an array or a group", async () => {
    for (const path of badPaths) {
      const store = new Map<string, Uint8Array>();
      await expect(createArray(store, { path, shape: [2], dtype: "uint8" })).rejects.toThrow(
        InvalidKeyError,
      );
      await expect(createGroup(store, { path })).rejects.toThrow(InvalidKeyError);
      await expect(createGroup(store, { path, zarrFormat: 2 })).rejects.toThrow(/zarr\.json/);
      await expect(createHierarchy(store, { [path]: { kind: "group" } })).rejects.toThrow(
        /zarr\.json/,
      );
      expect([...store.keys()]).toEqual([]);
    }
  });

  it("cannot be created below a group nor opened", async () => {
    const store = new Map<string, Uint8Array>();
    const root = await createGroup(store);
    await createArray(store, { path: "a/b", shape: [2], dtype: "uint8" });
    const before = [...store.keys()].sort();
    await expect(root.createGroup("zarr.json")).rejects.toThrow(InvalidKeyError);
    await expect(root.createGroup("a/zarr.json/b")).rejects.toThrow(/"a\/zarr\.json\/b"/);
    expect([...store.keys()].sort()).toEqual(before);
    for (const path of badPaths) {
      await expect(open(store, { path })).rejects.toThrow(InvalidKeyError);
      await expect(openArray(store, { path })).rejects.toThrow(InvalidKeyError);
      await expect(openGroup(store, { path })).rejects.toThrow(InvalidKeyError);
    }
    // The neighbours of the refused names still open.
    expect(await open(store, { path: "a" })).toBeInstanceOf(ZarrGroup);
  });
});

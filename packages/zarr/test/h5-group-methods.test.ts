import { consolidateMetadata, MapStore, openConsolidated, ZarrGroup } from "@z/zarr";
import { File, H5TypeError, NameExistsError } from "@z/zarr/h5";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * The h5 layer moves, deletes, creates and requires groups through ZarrGroup's methods (one
 * implementation), and its attribute writes update the Zarr group in place.
 */

afterEach(() => vi.restoreAllMocks());

describe.each([2, 3] as const)("h5 over ZarrGroup, v%s", (zarrFormat) => {
  it("move and delete go through ZarrGroup.move and ZarrGroup.delete", async () => {
    const store = new MapStore();
    const f = await File(store, "w", { zarrFormat });
    const g = await f.createGroup("g");
    await g.createDataset("d", { data: [1, 2, 3], dtype: "i2" });
    await consolidateMetadata(store);
    const move = vi.spyOn(ZarrGroup.prototype, "move");
    const remove = vi.spyOn(ZarrGroup.prototype, "delete");
    await f.createGroup("h");
    await f.move("g", "h/g");
    expect(move).toHaveBeenCalledWith("g", "h/g");
    await f.delete("h/g/d");
    expect(remove).toHaveBeenCalledWith("h/g/d");
    // The root's consolidated metadata followed both.
    const listed = await openConsolidated(store);
    expect(listed.consolidated?.paths()).toEqual(["h", "h/g"]);
    await expect(f.move("h", "h")).rejects.toThrow();
    await expect(f.move("missing", "x")).rejects.toThrow(/doesn't exist/);
  });

  it("createGroup and requireGroup go through the ZarrGroup methods, with h5py's errors", async () => {
    const f = await File(new MapStore(), "w", { zarrFormat });
    const create = vi.spyOn(ZarrGroup.prototype, "createGroup");
    const require = vi.spyOn(ZarrGroup.prototype, "requireGroup");
    const a = await f.createGroup("a/b");
    expect(create).toHaveBeenCalled();
    expect(a.name).toBe("/a/b");
    await expect(f.createGroup("a/b")).rejects.toThrow(NameExistsError);
    const same = await f.requireGroup("a/b");
    expect(require).toHaveBeenCalled();
    expect(same.name).toBe("/a/b");
    const sub = await (await f.requireGroup("a")).requireGroup("c");
    expect(sub.name).toBe("/a/c");
    await f.createDataset("d", { shape: [2], dtype: "f4" });
    await expect(f.requireGroup("d")).rejects.toThrow(H5TypeError);
    await expect(f.requireGroup("d")).rejects.toThrow(/Incompatible object \(Dataset\)/);
    await expect(f.requireGroup("d/x")).rejects.toThrow(H5TypeError);
  });

  it("attribute writes update the Zarr group in place", async () => {
    const f = await File(new MapStore(), "w", { zarrFormat });
    const g = await f.createGroup("g");
    const inner = g.zarrGroup;
    await g.attrs.set("units", "K");
    expect(g.zarrGroup).toBe(inner);
    expect(inner.attrs).toEqual({ units: "K" });
    await f.attrs.set("title", "t");
    expect(f.zarrGroup.attrs).toEqual({ title: "t" });
  });
});

import path from "node:path";
import { tempDir } from "@z/test-utils";
import { asyncDispose, MapStore } from "@z/zarr";
import { ClosedFileError, File } from "@z/zarr/h5";
import { afterAll, describe, expect, it } from "vitest";

const sandbox = tempDir("z-h5-dispose-");
afterAll(() => sandbox.remove());

/** A store that counts its disposals: a file must not dispose a store it was given. */
class CountingStore extends MapStore {
  disposals = 0;
  override async [asyncDispose](): Promise<void> {
    this.disposals++;
  }
}

describe("await using an h5 File", () => {
  it("closes the file at the end of the block and leaves a store passed in open", async () => {
    const store = new CountingStore();
    let kept: File | undefined;
    {
      await using f = await File(store, "w");
      kept = f;
      await f.createDataset("d", { shape: [3], dtype: "i2", data: [1, 2, 3] });
      expect(f.closed).toBe(false);
    }
    expect(kept.closed).toBe(true);
    await expect(kept.get("d")).rejects.toThrow(ClosedFileError);
    expect(store.disposals).toBe(0);
    await using again = await File(store, "r");
    expect(await again.keys()).toEqual(["d"]);
  });

  it("closes a file opened from a path, also when the block throws", async () => {
    const location = path.join(sandbox.dir, "data.zarr");
    let kept: File | undefined;
    await expect(
      (async () => {
        await using f = await File(location, "w");
        kept = f;
        await f.createGroup("g");
        throw new Error("inside the block");
      })(),
    ).rejects.toThrow("inside the block");
    expect(kept?.closed).toBe(true);
    await using reopened = await File(location, "r");
    expect(await reopened.keys()).toEqual(["g"]);
  });
});

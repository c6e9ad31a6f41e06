import { readFileSync } from "node:fs";
import path from "node:path";
import { MemoryArchive, ZipStore } from "@z/store-zip";
import { createZipFile, openZipFile } from "@z/store-zip/node";
import { tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

const sandbox = tempDir("z-store-zip-dispose-");
afterAll(() => sandbox.remove());

describe("await using a ZipStore", () => {
  it("completes an archive being written at the end of the block", async () => {
    const archive = new MemoryArchive();
    {
      await using zip = ZipStore.create(archive);
      await zip.set("zarr.json", Uint8Array.of(1, 2));
      expect(zip.supportsWrites).toBe(true);
    }
    const reopened = await ZipStore.open(archive);
    expect(await reopened.get("zarr.json")).toEqual(Uint8Array.of(1, 2));
  });

  it("writes a local zip file completely and reads it back, closing both", async () => {
    const file = path.join(sandbox.dir, "data.zarr.zip");
    {
      await using zip = await createZipFile(file);
      await zip.set("zarr.json", Uint8Array.of(1, 2));
      await zip.set("a/zarr.json", Uint8Array.of(3));
    }
    // The end of central directory record is there: the archive is complete.
    const bytes = readFileSync(file);
    expect(bytes.readUInt32LE(bytes.length - 22)).toBe(0x06054b50);
    {
      await using zip = await openZipFile(file);
      expect(zip.supportsWrites).toBe(false);
      expect(await zip.getSize("a/zarr.json")).toBe(1);
    }
  });
});

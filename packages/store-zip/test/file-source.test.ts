// A zip file read from disk holds its file open only while it is being read: a store that
// nobody closes (one opened from a location string) leaves no file handle to the garbage
// collector, which Node warns about and later versions refuse.
import { existsSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileSource, openZipFile } from "@z/store-zip/node";
import { tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { zipBytes } from "./support.js";

const haveProc = existsSync("/proc/self/fd");

/** How many of this process's file descriptors are open on `file`. */
function openOn(file: string): number {
  let n = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === file) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

const { dir, remove } = tempDir("z-zip-file-source-");
afterAll(remove);

describe.skipIf(!haveProc)("a zip file's byte source", () => {
  it("closes the file once idle and opens it again on the next read", async () => {
    const file = path.join(dir, "idle.zip");
    writeFileSync(file, await zipBytes([["a", Uint8Array.of(1, 2, 3)]]));
    const source = fileSource(file, { idleMs: 50 });
    expect(openOn(file)).toBe(0);
    await Promise.all([source.read(0, 4), source.read(4, 4), source.size()]);
    expect(openOn(file)).toBe(1);
    await sleep(200);
    expect(openOn(file)).toBe(0);
    expect((await source.read(0, 2)).length).toBe(2);
    expect(openOn(file)).toBe(1);
    await source.close();
    expect(openOn(file)).toBe(0);
  });

  it("a store nobody closes lets its file go after the default idle time", async () => {
    const file = path.join(dir, "store.zip");
    writeFileSync(file, await zipBytes([["zarr.json", new TextEncoder().encode("{}")]]));
    const store = await openZipFile(file);
    expect(new TextDecoder().decode(await store.get("zarr.json"))).toBe("{}");
    expect(openOn(file)).toBe(1);
    await sleep(1300);
    expect(openOn(file)).toBe(0);
    // Still usable afterwards.
    expect(await store.get("zarr.json")).toBeDefined();
  });

  it("a missing file fails each read with NotFoundError, and reads again once it exists", async () => {
    const file = path.join(dir, "later.zip");
    const source = fileSource(file, { idleMs: 50 });
    await expect(source.read(0, 1)).rejects.toMatchObject({ name: "NotFoundError" });
    writeFileSync(file, Uint8Array.of(7, 8));
    expect([...(await source.read(0, 2))]).toEqual([7, 8]);
    await source.close();
  });
});

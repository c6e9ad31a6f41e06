import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { collectKeys, isZarrError } from "@z/store-core";
import { expectBytes, patternBytes } from "@z/store-core/testing";
import {
  type ByteSink,
  bytesSource,
  detectPrefix,
  MemoryArchive,
  ZipStore,
  ZipWriter,
} from "@z/store-zip";
import { createZipFile, openZipFile } from "@z/store-zip/node";
import { havePython, runPython, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

const sandbox = tempDir("z-store-zip-writer-");
afterAll(() => sandbox.remove());
const python = havePython("zip writer interop with Python's zipfile", ["zipfile"]);

describe("ZipWriter", () => {
  it("stores entries uncompressed at known offsets, so ranges of them are ranges of the file", async () => {
    const archive = new MemoryArchive();
    const writer = new ZipWriter(archive);
    const shard = patternBytes(10_000, 1);
    await writer.add("a/c/0", shard);
    await writer.close();
    const entry = writer.entries.get("a/c/0")!;
    expect(entry.method).toBe(0);
    expectBytes(
      archive.bytes().subarray(entry.dataOffset!, entry.dataOffset! + shard.length),
      shard,
    );
  });

  it("refuses duplicate names unless replacing; a replaced or removed entry leaves the directory", async () => {
    const archive = new MemoryArchive();
    const writer = new ZipWriter(archive);
    await writer.add("k", Uint8Array.of(1));
    await expect(writer.add("k", Uint8Array.of(2))).rejects.toMatchObject({
      name: "ZipError",
      message: expect.stringMatching(/already has an entry "k"/),
    });
    await writer.add("k", Uint8Array.of(3, 3), { replace: true });
    await writer.add("gone/1", Uint8Array.of(4));
    await writer.add("gone/2", Uint8Array.of(5));
    expect(await writer.remove((name) => name.startsWith("gone/"))).toBe(2);
    await writer.close();
    const store = await ZipStore.open(bytesSource(archive.bytes()));
    expect(await collectKeys(store.list())).toEqual(["k"]);
    expectBytes(await store.get("k"), Uint8Array.of(3, 3));
    if (python) {
      const file = path.join(sandbox.dir, "replaced.zip");
      await import("node:fs").then((fs) => fs.writeFileSync(file, archive.bytes()));
      const out = runPython(
        `import zipfile\nz = zipfile.ZipFile(${JSON.stringify(file)})\nprint(z.namelist(), z.read("k").hex(), z.testzip())`,
      );
      expect(out.trim()).toBe("['k'] 0303 None");
    }
  });

  it("refuses work after close and after a failed write", async () => {
    const writer = new ZipWriter(new MemoryArchive());
    await writer.close();
    await expect(writer.add("x", Uint8Array.of(1))).rejects.toMatchObject({
      name: "ZipError",
      message: expect.stringMatching(/closed/),
    });
    await expect(writer.close()).rejects.toMatchObject({ name: "ZipError" });

    let calls = 0;
    const flaky: ByteSink = {
      write: async () => {
        if (++calls === 3) throw new Error("disk full");
      },
    };
    const failing = new ZipWriter(flaky);
    await failing.add("a", Uint8Array.of(1));
    await expect(failing.add("b", Uint8Array.of(2))).rejects.toThrow(/disk full/);
    await expect(failing.add("c", Uint8Array.of(3))).rejects.toMatchObject({
      name: "ZipError",
      message: expect.stringMatching(/earlier write .* failed/),
    });
    await expect(failing.close()).rejects.toMatchObject({ name: "ZipError" });
  });

  it("flags UTF-8 names, and reads legacy code page 437 names", async () => {
    const archive = new MemoryArchive();
    const writer = new ZipWriter(archive);
    await writer.add("ascii", Uint8Array.of(1));
    await writer.add("grüße/日本", Uint8Array.of(2));
    await writer.add("a_b", Uint8Array.of(3));
    await writer.close();
    expect(writer.entries.get("ascii")!.flags & 0x800).toBe(0);
    expect(writer.entries.get("grüße/日本")!.flags & 0x800).toBe(0x800);
    // Rewrite "a_b" as "a\x81b" in both headers: byte 0x81 alone is not UTF-8; in CP437 it is "ü".
    const bytes = archive.bytes().slice();
    for (let i = 0; i + 3 <= bytes.length; i++) {
      if (bytes[i] === 0x61 && bytes[i + 1] === 0x5f && bytes[i + 2] === 0x62) bytes[i + 1] = 0x81;
    }
    const store = await ZipStore.open(bytesSource(bytes));
    expect(await collectKeys(store.list())).toEqual(["ascii", "aüb", "grüße/日本"]);
    expectBytes(await store.get("aüb"), Uint8Array.of(3));
  });
});

describe("ZipStore writing", () => {
  it("reads back what it wrote before close, and the closed file opens as an archive", async () => {
    const file = path.join(sandbox.dir, "written.zip");
    const store = await createZipFile(file, { prefix: "data.zarr" });
    await store.set("zarr.json", new TextEncoder().encode('{"zarr_format":3,"node_type":"group"}'));
    await store.set("a/c/0", patternBytes(5000, 1));
    await store.set("a/c/0", patternBytes(6000, 2)); // replaced
    await store.set("a/c/1", patternBytes(10, 3));
    await store.delete("a/c/1");
    expectBytes(
      await store.get("a/c/0", { range: { suffix: 10 } }),
      patternBytes(6000, 2).subarray(-10),
    );
    expect(await collectKeys(store.list())).toEqual(["a/c/0", "zarr.json"]);
    await store.close();
    await expect(store.set("late", Uint8Array.of(1))).rejects.toMatchObject({ name: "ZipError" });
    expectBytes(await store.get("a/c/0"), patternBytes(6000, 2), "read after close");
    await store.close();

    await expect(createZipFile(file)).rejects.toMatchObject({
      name: "ZipError",
      message: expect.stringMatching(/the file exists \(pass overwrite: true/),
    });
    const reopened = await openZipFile(file);
    expect(reopened.prefix).toBe("data.zarr/");
    expect(await collectKeys(reopened.list())).toEqual(["a/c/0", "zarr.json"]);
    expectBytes(await reopened.get("a/c/0"), patternBytes(6000, 2));
    await reopened.close();
    if (python) {
      const out = runPython(
        `import zipfile\nz = zipfile.ZipFile(${JSON.stringify(file)})\nprint(sorted(z.namelist()), z.testzip(), {i.compress_type for i in z.infolist()})`,
      );
      expect(out.trim()).toBe("['data.zarr/a/c/0', 'data.zarr/zarr.json'] None {0}");
    }
    expect(readFileSync(file).length).toBeGreaterThan(6000 + 5000);
  });

  it("a read-mode store refuses writes with ReadOnlyError", async () => {
    const archive = new MemoryArchive();
    const writer = new ZipWriter(archive);
    await writer.add("zarr.json", Uint8Array.of(1));
    await writer.close();
    const store = await ZipStore.open(bytesSource(archive.bytes()));
    expect(store.mode).toBe("read");
    await expect(store.set("x", Uint8Array.of(1))).rejects.toMatchObject({ name: "ReadOnlyError" });
    await expect(store.deletePrefix("")).rejects.toMatchObject({ name: "ReadOnlyError" });
  });
});

describe("zip files that cannot be created", () => {
  it("a missing folder is a NotFoundError naming it, not a raw ENOENT", async () => {
    const folder = path.join(sandbox.dir, "missing", "deeper");
    const error = await createZipFile(path.join(folder, "x.zip")).catch((e) => e);
    expect(error).toMatchObject({ name: "NotFoundError", path: folder });
    expect(isZarrError(error)).toBe(true);
  });

  it("a path through a file, or a folder in the file's place, is a typed store error", async () => {
    const file = path.join(sandbox.dir, "plain-file");
    writeFileSync(file, "x");
    expect(isZarrError(await createZipFile(path.join(file, "x.zip")).catch((e) => e))).toBe(true);
    const error = await createZipFile(sandbox.dir, { overwrite: true }).catch((e) => e);
    expect(isZarrError(error)).toBe(true);
    expect(error.message).toContain(sandbox.dir);
  });
});

describe("detectPrefix", () => {
  it("finds the Zarr root of archives zipped from within and from the parent folder", () => {
    expect(detectPrefix(["zarr.json", "a/zarr.json"])).toBe("");
    expect(detectPrefix([".zgroup", ".zattrs", "a/.zarray"])).toBe("");
    expect(detectPrefix(["data.zarr/", "data.zarr/zarr.json", "data.zarr/a/c/0"])).toBe(
      "data.zarr/",
    );
    expect(detectPrefix(["x.zarr/.zmetadata", "x.zarr/.zgroup"])).toBe("x.zarr/");
    // One folder without metadata directly inside is a group of an implicit root, not the root.
    expect(detectPrefix(["a/b/zarr.json", "a/c/0"])).toBe("");
    expect(detectPrefix(["a/zarr.json", "b/zarr.json"])).toBe("");
    expect(detectPrefix(["README", "data.zarr/zarr.json"])).toBe("");
  });
});

describe("storeSource", () => {
  it("opens an archive in any store with one suffix read, and falls back to the size when data precedes it", async () => {
    const { LoggingStore, MapStore } = await import("@z/store-core");
    const { storeSource } = await import("@z/store-zip");
    const archive = new MemoryArchive();
    const writer = new ZipWriter(archive);
    await writer.add("zarr.json", patternBytes(30, 1));
    await writer.add("a/c/0", patternBytes(200_000, 2));
    await writer.close();
    const plain = new LoggingStore(new MapStore(new Map([["x.zip", archive.bytes().slice()]])));
    const store = await ZipStore.open(storeSource(plain, "x.zip"));
    expect(plain.requests.map((r) => r.range)).toEqual([{ suffix: 22 + 0xffff + 20 }]);
    expectBytes(
      await store.get("a/c/0", { range: { offset: 150_000, length: 8 } }),
      patternBytes(200_000, 2).subarray(150_000, 150_008),
    );

    // A 100 KiB stub before the archive (a self-extractor) shifts every offset.
    const stubbed = new Uint8Array(100_000 + archive.bytes().length);
    stubbed.set(archive.bytes(), 100_000);
    const shifted = await ZipStore.open(
      storeSource(new MapStore(new Map([["x.zip", stubbed]])), "x.zip"),
    );
    expectBytes(await shifted.get("zarr.json"), patternBytes(30, 1));
    expectBytes(await shifted.get("a/c/0"), patternBytes(200_000, 2));
    await expect(ZipStore.open(storeSource(new MapStore(), "missing.zip"))).rejects.toMatchObject({
      name: "NotFoundError",
    });
  });
});

import { writeFileSync } from "node:fs";
import path from "node:path";
import { collectKeys } from "@z/store-core";
import { expectBytes, patternBytes } from "@z/store-core/testing";
import { type ByteSource, bytesSource, MemoryArchive, ZipStore, ZipWriter } from "@z/store-zip";
import { openZipFile } from "@z/store-zip/node";
import { havePython, runPython, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { zipBytes } from "./support.js";

const sandbox = tempDir("z-store-zip64-");
afterAll(() => sandbox.remove());
const python = havePython("zip64 interop with Python's zipfile", ["zipfile"]);

const COUNT = 70_000; // more than 65535 entries: the count only fits a zip64 end record
const keyOf = (i: number) => `big/c/${i % 100}/${i}`;
const valueAt = (i: number) => patternBytes(i % 13, i);

/** The little-endian fields of the plain end record (the last 22 bytes, no comment). */
function endRecord(bytes: Uint8Array) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 22, 22);
  return {
    entries: dv.getUint16(10, true),
    cdSize: dv.getUint32(12, true),
    cdOffset: dv.getUint32(16, true),
  };
}

describe("zip64", () => {
  let bytes: Uint8Array;

  it(`writes an archive of ${COUNT} entries with zip64 end records, and reads it back`, async () => {
    const archive = new MemoryArchive();
    const writer = new ZipWriter(archive);
    for (let i = 0; i < COUNT; i++) await writer.add(keyOf(i), valueAt(i));
    await writer.close();
    bytes = archive.bytes().slice();
    // The plain end record defers to the zip64 one.
    expect(endRecord(bytes)).toEqual({ entries: 0xffff, cdSize: 0xffffffff, cdOffset: 0xffffffff });
    const store = await ZipStore.open(bytesSource(bytes));
    const keys = await collectKeys(store.list());
    expect(keys).toHaveLength(COUNT);
    for (const i of [0, 1, 65534, 65535, 65536, COUNT - 1])
      expectBytes(await store.get(keyOf(i)), valueAt(i), keyOf(i));
    expect((await store.listDir("big/c/")).prefixes).toHaveLength(100);
  });

  it.skipIf(!python)("Python's zipfile reads our zip64 archive and checks every CRC", () => {
    const file = path.join(sandbox.dir, "many.zip");
    writeFileSync(file, bytes);
    const out = runPython(
      `import zipfile\nz = zipfile.ZipFile(${JSON.stringify(file)})\nprint(len(z.infolist()), z.testzip(), z.read(${JSON.stringify(keyOf(COUNT - 1))}).hex())`,
    );
    const value = Buffer.from(valueAt(COUNT - 1)).toString("hex");
    expect(out.trim()).toBe(`${COUNT} None ${value}`);
  });

  it("zip64: 'always' puts sizes and offsets in zip64 extra fields; we and Python read them", async () => {
    const entries = new Map<string, Uint8Array>([
      ["zarr.json", patternBytes(100, 1)],
      ["a/c/0", patternBytes(70_000, 2)],
      ["ü/日本", patternBytes(5, 3)],
    ]);
    const data = await zipBytes(entries, { zip64: "always" });
    const store = await ZipStore.open(bytesSource(data));
    for (const [key, value] of entries) expectBytes(await store.get(key), value, key);
    expectBytes(
      await store.get("a/c/0", { range: { offset: 65_000, length: 10 } }),
      entries.get("a/c/0")!.subarray(65_000, 65_010),
    );
    if (python) {
      const file = path.join(sandbox.dir, "always.zip");
      writeFileSync(file, data);
      const out = runPython(
        `import zipfile\nz = zipfile.ZipFile(${JSON.stringify(file)})\nprint(z.testzip(), sorted(i.filename for i in z.infolist()), [i.file_size for i in z.infolist()])`,
      );
      expect(out.trim()).toBe("None ['a/c/0', 'zarr.json', 'ü/日本'] [100, 70000, 5]");
    }
  });

  it.skipIf(!python)(
    "reads zip64 archives Python writes (force_zip64 entries, more than 65535 entries)",
    async () => {
      const file = path.join(sandbox.dir, "python64.zip");
      runPython(`import zipfile
with zipfile.ZipFile(${JSON.stringify(file)}, "w", zipfile.ZIP_STORED) as z:
    with z.open("data.zarr/zarr.json", "w", force_zip64=True) as f:
        f.write(b'{"zarr_format": 3, "node_type": "group"}')
    for i in range(66000):
        z.writestr("data.zarr/c/%d" % i, bytes([i % 256]) * (i % 5))
    z.writestr(zipfile.ZipInfo("data.zarr/deflated"), b"abc" * 1000, compress_type=zipfile.ZIP_DEFLATED)
`);
      const store = await openZipFile(file);
      try {
        expect(store.prefix).toBe("data.zarr/");
        expect(new TextDecoder().decode(await store.get("zarr.json"))).toBe(
          '{"zarr_format": 3, "node_type": "group"}',
        );
        expect(await collectKeys(store.listPrefix("c/"))).toHaveLength(66000);
        expectBytes(await store.get("c/65999"), new Uint8Array(4).fill(65999 % 256));
        expect(new TextDecoder().decode(await store.get("deflated"))).toBe("abc".repeat(1000));
      } finally {
        await store.close();
      }
    },
  );

  it("reads an archive placed after 5 GiB of other data (offsets beyond 32 bits)", async () => {
    const inner = await zipBytes(
      [
        ["zarr.json", patternBytes(40, 1)],
        ["a/c/0", patternBytes(3000, 2)],
      ],
      { zip64: "always" },
    );
    const gap = 5 * 1024 ** 3;
    const reads: number[] = [];
    // A source whose first 5 GiB are zeros (a stub before the archive, as in self-extractors).
    const shifted: ByteSource = {
      size: async () => gap + inner.length,
      read: async (offset, length) => {
        reads.push(offset);
        const out = new Uint8Array(length);
        const from = Math.max(offset, gap);
        if (from < offset + length)
          out.set(inner.subarray(from - gap, offset + length - gap), from - offset);
        return out;
      },
    };
    const store = await ZipStore.open(shifted);
    expectBytes(
      await store.get("a/c/0", { range: { offset: 100, length: 50 } }),
      patternBytes(3000, 2).subarray(100, 150),
    );
    expectBytes(await store.get("zarr.json"), patternBytes(40, 1));
    // Nothing was read before the tail read of the end records (the last 64 KiB + 42 bytes).
    expect(Math.min(...reads)).toBe(gap + inner.length - (22 + 0xffff + 20));
  });
});

import { collectKeys, isZarrError } from "@z/store-core";
import { expectBytes, patternBytes } from "@z/store-core/testing";
import { bytesSource, ZipStore } from "@z/store-zip";
import fc from "fast-check";
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { countingSource, zipBytes } from "./support.js";

const STORED = new Map<string, Uint8Array>([
  ["zarr.json", new TextEncoder().encode('{"zarr_format":3,"node_type":"group"}')],
  ["a/c/0", patternBytes(2000, 1)],
  ["a/c/1", patternBytes(50, 2)],
]);

/** An archive with deflated entries (fflate's zipSync deflates), 3 entries. */
function deflatedArchive(): Uint8Array {
  return zipSync(
    {
      "zarr.json": new TextEncoder().encode('{"zarr_format":3,"node_type":"group"}'),
      "a/c/0": new Uint8Array(5000).fill(7),
      "a/c/1": patternBytes(300, 3),
    },
    { level: 6 },
  );
}

const dv = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
/** Position of the central directory, from the plain end record (archives without a comment). */
const cdOffsetOf = (bytes: Uint8Array) => dv(bytes).getUint32(bytes.length - 22 + 16, true);
/** Positions of every central record. */
function centralRecords(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let p = cdOffsetOf(bytes);
  while (dv(bytes).getUint32(p, true) === 0x02014b50) {
    out.push(p);
    p +=
      46 +
      dv(bytes).getUint16(p + 28, true) +
      dv(bytes).getUint16(p + 30, true) +
      dv(bytes).getUint16(p + 32, true);
  }
  return out;
}
/** The central record of a name. */
function recordOf(bytes: Uint8Array, name: string): number {
  const found = centralRecords(bytes).find(
    (p) =>
      new TextDecoder().decode(
        bytes.subarray(p + 46, p + 46 + dv(bytes).getUint16(p + 28, true)),
      ) === name,
  );
  if (found === undefined) throw new Error(`no record for ${name}`);
  return found;
}
const localOf = (bytes: Uint8Array, name: string) =>
  dv(bytes).getUint32(recordOf(bytes, name) + 42, true);

async function expectZipError(call: () => Promise<unknown>, pattern: RegExp): Promise<void> {
  const error = await call().then(
    () => undefined,
    (e) => e,
  );
  expect(error, "expected a ZipError").toBeDefined();
  expect(error.name, String(error)).toBe("ZipError");
  expect(isZarrError(error)).toBe(true);
  expect(error.message).toMatch(pattern);
}

describe("bad zip archives give ZipError, never a crash", () => {
  it("not a zip, empty, truncated at the end or the front", async () => {
    const good = await zipBytes(STORED);
    await expectZipError(
      () => ZipStore.open(bytesSource(patternBytes(5000, 9))),
      /no end-of-central-directory/,
    );
    await expectZipError(
      () => ZipStore.open(bytesSource(new Uint8Array(0))),
      /no end-of-central-directory/,
    );
    await expectZipError(
      () => ZipStore.open(bytesSource(good.subarray(0, good.length - 5))),
      /no end-of-central-directory/,
    );
    await expectZipError(
      () => ZipStore.open(bytesSource(good.subarray(0, good.length >> 1))),
      /no end-of-central-directory/,
    );
    await expectZipError(
      () => ZipStore.open(bytesSource(good.subarray(1500))),
      /central directory claims offset/,
    );
  });

  it("a corrupt central directory: bad signature, record running past its end, wrong count or size", async () => {
    const good = await zipBytes(STORED);
    const cd = cdOffsetOf(good);
    const badSignature = good.slice();
    badSignature[cd] ^= 0xff;
    await expectZipError(
      () => ZipStore.open(bytesSource(badSignature)),
      /holds 0 readable records, the end record says 3/,
    );

    const longName = good.slice();
    dv(longName).setUint16(centralRecords(good)[2] + 28, 60_000, true);
    await expectZipError(
      () => ZipStore.open(bytesSource(longName)),
      /runs past the directory's end/,
    );

    const count = good.slice();
    dv(count).setUint16(count.length - 22 + 10, 40_000, true);
    dv(count).setUint16(count.length - 22 + 8, 40_000, true);
    await expectZipError(() => ZipStore.open(bytesSource(count)), /40000 entries cannot fit/);

    const size = good.slice();
    dv(size).setUint32(size.length - 22 + 12, 0x7fff_ffff, true);
    await expectZipError(() => ZipStore.open(bytesSource(size)), /larger than what precedes/);

    const offset = good.slice();
    dv(offset).setUint32(offset.length - 22 + 16, cd + 1000, true);
    await expectZipError(() => ZipStore.open(bytesSource(offset)), /claims offset/);
  });

  it("an entry whose local header lies past the end, or disagrees with the central directory", async () => {
    const good = await zipBytes(STORED);
    const past = good.slice();
    dv(past).setUint32(recordOf(past, "a/c/1") + 42, 0x7fff_0000, true);
    const store = await ZipStore.open(bytesSource(past));
    await expectZipError(() => store.get("a/c/1"), /lies past the entries' end/);
    // The other entries still read.
    expectBytes(await store.get("a/c/0"), STORED.get("a/c/0")!);

    const size = good.slice();
    dv(size).setUint32(localOf(size, "a/c/0") + 22, 1999, true);
    await expectZipError(
      async () => (await ZipStore.open(bytesSource(size))).get("a/c/0"),
      /disagrees with the central directory/,
    );
    await expectZipError(
      async () =>
        (await ZipStore.open(bytesSource(size))).get("a/c/0", { range: { offset: 10, length: 5 } }),
      /disagrees/,
    );

    const name = good.slice();
    name[localOf(name, "a/c/1") + 30 + 4] = "9".charCodeAt(0);
    await expectZipError(
      async () => (await ZipStore.open(bytesSource(name))).get("a/c/1"),
      /names another file \("a\/c\/9"\)/,
    );

    const signature = good.slice();
    signature[localOf(signature, "zarr.json")] = 0;
    await expectZipError(
      async () => (await ZipStore.open(bytesSource(signature))).get("zarr.json"),
      /is missing/,
    );

    // The central directory points the entry into the middle of another entry's data.
    const shifted = good.slice();
    dv(shifted).setUint32(recordOf(shifted, "a/c/1") + 42, localOf(good, "a/c/0") + 100, true);
    await expectZipError(
      async () => (await ZipStore.open(bytesSource(shifted))).get("a/c/1"),
      /is missing/,
    );
  });

  it("a checksum mismatch fails whole reads (ranges inside stored entries are not checked)", async () => {
    const good = await zipBytes(STORED);
    const flipped = good.slice();
    const local = localOf(flipped, "a/c/0");
    flipped[local + 30 + 5 + 1000] ^= 1;
    const store = await ZipStore.open(bytesSource(flipped));
    await expectZipError(() => store.get("a/c/0"), /CRC-32 of "a\/c\/0" does not match/);
    expect(await store.get("a/c/0", { range: { offset: 0, length: 10 } })).toHaveLength(10);
    const unchecked = await ZipStore.open(bytesSource(flipped), { verifyChecksums: false });
    expect(await unchecked.get("a/c/0")).toHaveLength(2000);
  });

  it("deflated entries: corrupt data, a size claim beyond deflate's ratio, unsupported methods, encryption", async () => {
    const good = deflatedArchive();
    const store = await ZipStore.open(bytesSource(good));
    expectBytes(await store.get("a/c/0"), new Uint8Array(5000).fill(7));
    expectBytes(
      await store.get("a/c/1", { range: { offset: 100, length: 3 } }),
      patternBytes(300, 3).subarray(100, 103),
    );

    const corrupt = good.slice();
    const local = localOf(corrupt, "a/c/1");
    for (let i = 0; i < 20; i++) corrupt[local + 30 + 5 + 40 + i] ^= 0x5a;
    await expectZipError(
      async () => (await ZipStore.open(bytesSource(corrupt))).get("a/c/1"),
      /does not inflate|CRC-32|inflates to/,
    );

    const bomb = good.slice();
    // Claim 2^40 bytes (zip64 would be needed, so claim the most a plain header can: 4 GiB - 2).
    dv(bomb).setUint32(recordOf(bomb, "a/c/1") + 24, 0xffff_fffe, true);
    const source = countingSource(bomb);
    await expectZipError(
      async () => (await ZipStore.open(source)).get("a/c/1"),
      /claims 4294967294 bytes from/,
    );

    const method = good.slice();
    dv(method).setUint16(recordOf(method, "a/c/1") + 10, 12, true);
    dv(method).setUint16(localOf(method, "a/c/1") + 8, 12, true);
    await expectZipError(
      async () => (await ZipStore.open(bytesSource(method))).get("a/c/1"),
      /compression method 12/,
    );

    const encrypted = good.slice();
    dv(encrypted).setUint16(recordOf(encrypted, "a/c/1") + 8, 1, true);
    await expectZipError(
      async () => (await ZipStore.open(bytesSource(encrypted))).get("a/c/1"),
      /encrypted/,
    );
  });

  it("a zip64 locator without its record", async () => {
    const good = await zipBytes(STORED, { zip64: "always" });
    const broken = good.slice();
    // The zip64 end record sits right before the 20-byte locator and the 22-byte end record.
    broken[good.length - 22 - 20 - 56] ^= 0xff;
    await expectZipError(() => ZipStore.open(bytesSource(broken)), /zip64 end record is missing/);
  });

  it("random damage: every failure is a ZipError, and no read asks for more than the archive holds", async () => {
    const archives = [
      await zipBytes(STORED),
      deflatedArchive(),
      await zipBytes(STORED, { zip64: "always" }),
    ];
    const damage = fc.record({
      which: fc.nat(archives.length - 1),
      flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), {
        minLength: 1,
        maxLength: 6,
      }),
      cut: fc.option(fc.nat(), { nil: undefined }),
      suffix: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(damage, async ({ which, flips, cut, suffix }) => {
        let bytes = archives[which].slice();
        for (const [at, mask] of flips) bytes[at % bytes.length] ^= mask;
        if (cut !== undefined) bytes = bytes.subarray(0, cut % bytes.length);
        const source = countingSource(bytes, suffix);
        const attempt = async () => {
          const store = await ZipStore.open(source);
          for (const key of await collectKeys(store.list())) {
            for (const range of [undefined, { offset: 3, length: 7 }, { suffix: 5 }]) {
              await store.get(key, { range }).catch((error) => {
                if (error?.name !== "ZipError") throw error;
              });
            }
          }
        };
        await attempt().catch((error) => {
          if (error?.name !== "ZipError") throw error;
        });
        for (const read of source.reads) expect(read.length).toBeLessThanOrEqual(bytes.length);
      }),
      { numRuns: 300 },
    );
  });
});

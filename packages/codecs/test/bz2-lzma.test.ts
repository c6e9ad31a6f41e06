// bz2 (read-only) and lzma against numcodecs' golden files, plus the bounds: corrupt,
// truncated, or oversized data gives a DecodeError before anything large is allocated.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import {
  type BytesToBytesCodec,
  CodecConfigError,
  DecodeError,
  loadCodecs,
  resolveCodec,
} from "@z/codecs";
import { resolveNumpyDataType } from "@z/metadata";
import { goldenCases, haveFixtures } from "@z/test-utils";
import { beforeAll, describe, expect, it } from "vitest";

const PYTHON = "/usr/bin/python3";

// Both load on first use; codec() builds them synchronously.
beforeAll(() => loadCodecs(["numcodecs.bz2", "numcodecs.lzma"]));

function codec(config: Record<string, unknown>): BytesToBytesCodec {
  const { id, ...configuration } = config;
  const spec = { shape: [1], dataType: resolveNumpyDataType("uint8").dataType, fillValue: 0 };
  return resolveCodec(
    { name: `numcodecs.${id}`, configuration: configuration as never, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  ) as BytesToBytesCodec;
}

for (const name of ["bz2", "lzma"]) {
  const cases = haveFixtures(`${name} golden files`) ? goldenCases(name) : [];
  describe.skipIf(cases.length === 0)(`${name} golden files`, () => {
    it.each(cases.map((c) => [c.label, c] as const))("%s decodes exactly", async (_label, c) => {
      const out = await codec(c.config).decode(c.encoded, {
        expectedSize: c.array.data.length,
        maxSize: c.array.data.length,
      });
      expect(Buffer.from(out).equals(Buffer.from(c.array.data))).toBe(true);
    });
  });
}

const sample = new Uint8Array(100_000).map((_, i) => ((i * 7919) % 251) & (i >> 10));

describe("bz2", () => {
  it("refuses to write, with a clear error", () => {
    expect(() => codec({ id: "bz2", level: 1 }).encode(sample)).toThrow(CodecConfigError);
    expect(() => codec({ id: "bz2", level: 10 })).toThrow(/level/);
  });

  const bz2 = haveFixtures("bz2 bounds") ? goldenCases("bz2")[1] : undefined;
  it.skipIf(!bz2)("stops at the chunk's bound and rejects corrupt or truncated data", async () => {
    const c = bz2!;
    const n = c.array.data.length;
    const codecBz2 = codec(c.config);
    await expect(codecBz2.decode(c.encoded, { maxSize: n - 1 })).rejects.toThrow(/more than the/);
    await expect(
      codecBz2.decode(c.encoded, { expectedSize: n + 1, maxSize: n + 1 }),
    ).rejects.toThrow(DecodeError);
    await expect(
      codecBz2.decode(c.encoded.subarray(0, c.encoded.length - 10), { maxSize: n }),
    ).rejects.toThrow(DecodeError);
    const corrupt = c.encoded.slice();
    corrupt[corrupt.length >> 1] ^= 0x55;
    await expect(codecBz2.decode(corrupt, { maxSize: n })).rejects.toThrow(DecodeError);
    await expect(codecBz2.decode(new Uint8Array([1, 2, 3, 4]), { maxSize: n })).rejects.toThrow(
      /not bzip2/,
    );
  });
});

describe("lzma", () => {
  it("round trips xz, alone and raw LZMA2", async () => {
    for (const config of [
      { id: "lzma", format: 1, check: -1, preset: null, filters: null },
      { id: "lzma", format: 2, check: -1, preset: null, filters: null },
      { id: "lzma", format: 3, check: -1, preset: null, filters: [{ id: 33, preset: 1 }] },
    ]) {
      const c = codec(config);
      const encoded = await c.encode(sample);
      // @napi-rs/lzma 1.4 compresses .lzma only; its .xz and raw LZMA2 are stored chunks.
      if (config.format === 2) expect(encoded.length).toBeLessThan(sample.length / 2);
      const decoded = await c.decode(encoded, {
        expectedSize: sample.length,
        maxSize: sample.length,
      });
      expect(Buffer.from(decoded).equals(Buffer.from(sample))).toBe(true);
      expect(c.toJson().configuration).toEqual(
        Object.fromEntries(Object.entries(config).filter(([k]) => k !== "id")),
      );
    }
  });

  it("refuses oversized, truncated and corrupt data before or while decoding", async () => {
    const xz = codec({ id: "lzma" });
    const encoded = await xz.encode(sample);
    await expect(xz.decode(encoded, { maxSize: sample.length - 1 })).rejects.toThrow(
      /more than the/,
    );
    await expect(
      xz.decode(encoded.subarray(0, encoded.length - 20), { maxSize: sample.length }),
    ).rejects.toThrow(/not valid .xz/);
    const raw = codec({ id: "lzma", format: 3, filters: [{ id: 33, preset: 1 }] });
    const rawEncoded = await raw.encode(sample);
    await expect(raw.decode(rawEncoded, { maxSize: 1000 })).rejects.toThrow(/more than the 1000/);
    const corrupt = rawEncoded.slice();
    corrupt[0] = 0x42;
    await expect(raw.decode(corrupt, { maxSize: sample.length })).rejects.toThrow(DecodeError);
    expect(() =>
      codec({ id: "lzma", format: 3, filters: [{ id: 3, dist: 4 }, { id: 33 }] }),
    ).toThrow(/exactly one LZMA2/);
    expect(() => codec({ id: "lzma", format: 7 })).toThrow(CodecConfigError);
  });

  it.skipIf(!existsSync(PYTHON))(
    "writes data Python's lzma module reads (xz, alone, raw)",
    async () => {
      const small = sample.subarray(0, 5000);
      for (const [format, pyFormat, filters] of [
        [1, "lzma.FORMAT_XZ", "None"],
        [2, "lzma.FORMAT_ALONE", "None"],
        [3, "lzma.FORMAT_RAW", "[{'id': lzma.FILTER_LZMA2, 'preset': 1}]"],
      ] as const) {
        const config =
          format === 3
            ? { id: "lzma", format, filters: [{ id: 33, preset: 1 }] }
            : { id: "lzma", format };
        const encoded = await codec(config).encode(small);
        const script = `import lzma,sys; d=sys.stdin.buffer.read(); sys.stdout.buffer.write(lzma.decompress(d, format=${pyFormat}, filters=${filters}))`;
        const out = execFileSync(PYTHON, ["-c", script], { input: encoded });
        expect(Buffer.from(out).equals(Buffer.from(small))).toBe(true);
      }
    },
  );
});

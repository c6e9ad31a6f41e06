// Cross-check with Python: what we encode, Debian's numcodecs 0.11 (/usr/bin/python3) decodes to
// the same data, and what it encodes we decode. Also compares the encodings byte for byte where
// numcodecs' output is deterministic.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type BytesToBytesCodec, loadCodecs, resolveCodec } from "@z/codecs";
import { type DeflateLevel, gzipCompressPython, pythonDeflate } from "@z/compression/deflate-sync";
import { resolveDataTypeV3 } from "@z/metadata";
import { tempDir } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PYTHON = "/usr/bin/python3";

const pythonReady = (() => {
  if (!existsSync(PYTHON)) return false;
  const probe = spawnSync(PYTHON, ["-c", "import numcodecs, numpy"], { encoding: "utf8" });
  return probe.status === 0;
})();
if (!pythonReady) {
  console.warn(
    `[compressors-python] SKIPPED: ${PYTHON} with numcodecs (Debian python3-numcodecs) is not available`,
  );
}

// Decodes every case with numcodecs and encodes its input with numcodecs. numcodecs 0.11 has no
// crc32c codec (and no `location`), so the checksum codecs are read per numcodecs' layout with
// the checksum computed in Python (crc32c bit by bit, an implementation independent of ours).
const SCRIPT = `
import json, os, sys, zlib
import numpy as np
import numcodecs
from numcodecs import GZip, Zlib, Zstd, LZ4

folder = sys.argv[1]
cases = json.load(open(os.path.join(folder, "cases.json")))

def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF

CHECKSUMS = {"crc32": zlib.crc32, "adler32": zlib.adler32, "crc32c": crc32c}

def make(config):
    cid = config["id"]
    if cid == "gzip": return GZip(config.get("level", 1))
    if cid == "zlib": return Zlib(config.get("level", 1))
    if cid == "zstd": return Zstd(config.get("level", 1))
    if cid == "lz4": return LZ4(config.get("acceleration", 1))
    raise ValueError(cid)

results = []
for case in cases:
    config = case["config"]
    cid = config["id"]
    raw = open(os.path.join(folder, case["input"]), "rb").read()
    ours = open(os.path.join(folder, case["encoded"]), "rb").read()
    result = {"decoded": None, "error": None, "pythonEncoded": None}
    try:
        if cid in CHECKSUMS:
            location = config.get("location", "end" if cid == "crc32c" else "start")
            checksum = (CHECKSUMS[cid](raw) & 0xFFFFFFFF).to_bytes(4, "little")
            py = checksum + raw if location == "start" else raw + checksum
        else:
            py = bytes(make(config).encode(np.frombuffer(raw, dtype="u1")))
        enc = case["encoded"] + ".py-encoded"
        open(os.path.join(folder, enc), "wb").write(py)
        result["pythonEncoded"] = enc
        if cid in CHECKSUMS:
            stored, payload = (ours[:4], ours[4:]) if location == "start" else (ours[-4:], ours[:-4])
            if int.from_bytes(stored, "little") != CHECKSUMS[cid](payload) & 0xFFFFFFFF:
                raise RuntimeError("checksum failed")
            decoded = payload
        else:
            decoded = bytes(make(config).decode(ours))
        out = case["encoded"] + ".py-decoded"
        open(os.path.join(folder, out), "wb").write(decoded)
        result["decoded"] = out
    except Exception as e:
        result["error"] = f"{type(e).__name__}: {e}"
    results.append(result)

# Multi-member gzip as Python writes it (gzip.compress twice).
import gzip
a, b = b"first member " * 100, bytes(range(256)) * 10
open(os.path.join(folder, "multi.gz"), "wb").write(gzip.compress(a) + gzip.compress(b))
open(os.path.join(folder, "multi.raw"), "wb").write(a + b)
json.dump(results, open(os.path.join(folder, "results.json"), "w"))
`;

const spec = { shape: [1], dataType: resolveDataTypeV3("uint8"), fillValue: 0 };
function codecFor(config: Record<string, unknown>): BytesToBytesCodec {
  const { id, ...configuration } = config;
  const codec = resolveCodec(
    { name: `numcodecs.${id}`, configuration: configuration as never, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  );
  if (codec?.kind !== "bytes_to_bytes") throw new Error(`numcodecs.${id}?`);
  return codec;
}

function inputs(): Uint8Array[] {
  const smooth = new Float32Array(50_000).map((_, i) => Math.sin(i / 300) * 100);
  const noise = new Uint8Array(30_000);
  let x = 12345;
  for (let i = 0; i < noise.length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    noise[i] = x >>> 24;
  }
  return [
    new Uint8Array(0),
    Uint8Array.of(42),
    new TextEncoder().encode("zarr ".repeat(300)),
    new Uint8Array(smooth.buffer),
    noise,
  ];
}

const CONFIGS: Record<string, unknown>[] = [
  ...[-1, 0, 1, 5, 9].map((level) => ({ id: "gzip", level })),
  ...[-1, 0, 1, 6, 9].map((level) => ({ id: "zlib", level })),
  ...[0, 1, 3, 9, 19, 22].map((level) => ({ id: "zstd", level })),
  { id: "zstd", level: 3, checksum: true },
  { id: "zstd", level: 1, checksum: true },
  ...[1, 5, 100].map((acceleration) => ({ id: "lz4", acceleration })),
  { id: "crc32" },
  { id: "adler32" },
  { id: "crc32c" },
  { id: "crc32", location: "end" },
  { id: "crc32c", location: "start" },
];

describe.skipIf(!pythonReady)("cross-check with numcodecs 0.11 (Python)", () => {
  // These codecs load on first use; codecFor builds them synchronously.
  beforeAll(() => loadCodecs(CONFIGS.map((config) => `numcodecs.${config.id}`)));
  const { dir, remove } = tempDir("z-compressors-python-");
  afterAll(remove);
  const report: string[] = [];
  afterAll(() => console.log(`[compressors-python]\n  ${report.join("\n  ")}`));

  it("numcodecs decodes what we encode, and we decode what it encodes", async () => {
    const cases: { config: Record<string, unknown>; input: string; encoded: string }[] = [];
    const data = inputs();
    for (const [i, bytes] of data.entries()) writeFileSync(path.join(dir, `input-${i}.bin`), bytes);
    for (const [c, config] of CONFIGS.entries()) {
      for (const [i, bytes] of data.entries()) {
        const encoded = await codecFor(config).encode(bytes);
        const file = `case-${c}-${i}.bin`;
        writeFileSync(path.join(dir, file), encoded);
        cases.push({ config, input: `input-${i}.bin`, encoded: file });
      }
    }
    // A negative control: a corrupted zstd checksum must make Python fail, so its success on
    // ours means libzstd verified our XXH64.
    const control = await codecFor({ id: "zstd", level: 3, checksum: true }).encode(data[3]);
    control[control.length - 1] ^= 1;
    writeFileSync(path.join(dir, "control.bin"), control);
    cases.push({ config: { id: "zstd", level: 3 }, input: "input-3.bin", encoded: "control.bin" });
    writeFileSync(path.join(dir, "cases.json"), JSON.stringify(cases));

    const run = spawnSync(PYTHON, ["-c", SCRIPT, dir], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(path.join(dir, "results.json"), "utf8")) as {
      decoded: string | null;
      error: string | null;
      pythonEncoded: string | null;
    }[];
    expect(results.at(-1)?.error).toMatch(/checksum|corrupt/i);

    const tally = new Map<string, { cases: number; identical: number; readBack: number }>();
    for (const [k, result] of results.slice(0, -1).entries()) {
      const { config, input } = cases[k];
      const raw = readFileSync(path.join(dir, input));
      const ours = readFileSync(path.join(dir, cases[k].encoded));
      const theirs = readFileSync(path.join(dir, result.pythonEncoded as string));
      if ((config.id === "zstd" || config.id === "lz4") && raw.length === 0) {
        // numcodecs 0.11 cannot decode empty zstd or lz4 data, not even its own (it takes a
        // decoded size of 0 for an error); ours is what it writes, byte for byte (numcodecs 0.11
        // has no zstd checksum option, so only without one).
        expect(result.error).toMatch(/invalid input/);
        if (!config.checksum) expect(Buffer.compare(ours, theirs)).toBe(0);
        expect(
          (await codecFor(config).decode(theirs, { expectedSize: 0, maxSize: 0 })).length,
        ).toBe(0);
        continue;
      }
      expect(result.error, `${JSON.stringify(config)} ${input}`).toBeNull();
      expect(Buffer.compare(readFileSync(path.join(dir, result.decoded as string)), raw)).toBe(0);
      // Python's output decodes with our codec.
      const back = await codecFor(config).decode(theirs, {
        expectedSize: raw.length,
        maxSize: raw.length,
      });
      expect(Buffer.compare(back, raw), `${JSON.stringify(config)} ${input}`).toBe(0);
      let identical: boolean;
      // In Node the codecs encode gzip and zlib with node:zlib (valid streams, read back by
      // Python above, but not Python's bytes); the browser encoder (pako) must write Python's.
      const level = config.level as DeflateLevel;
      if (config.id === "gzip") {
        // Python stamps the current time into bytes 4..7; everything else must match.
        const browser = gzipCompressPython(raw, level);
        identical =
          Buffer.compare(
            Buffer.concat([browser.subarray(0, 4), browser.subarray(8)]),
            Buffer.concat([theirs.subarray(0, 4), theirs.subarray(8)]),
          ) === 0;
        expect(identical, `${JSON.stringify(config)} ${input}`).toBe(true);
      } else if (config.id === "zstd") {
        // Debian's libzstd is another version than numcodecs.js' WASM build, and numcodecs 0.11
        // cannot write checksums: counted, not required.
        identical = Buffer.compare(ours, theirs) === 0;
      } else if (config.id === "zlib") {
        identical = Buffer.compare(pythonDeflate(raw, level, false, "compress"), theirs) === 0;
        expect(identical, `${JSON.stringify(config)} ${input}`).toBe(true);
      } else {
        identical = Buffer.compare(ours, theirs) === 0;
        expect(identical, `${JSON.stringify(config)} ${input}`).toBe(true);
      }
      const key = String(config.id);
      const t = tally.get(key) ?? { cases: 0, identical: 0, readBack: 0 };
      t.cases++;
      t.readBack++;
      if (identical) t.identical++;
      tally.set(key, t);
    }
    for (const [id, t] of tally) {
      report.push(
        `${id}: ${t.cases} of our encodings read back in Python, ${t.readBack} of its encodings decoded by us, ` +
          `${t.identical} byte-identical${id === "gzip" ? " (browser encoder, except mtime)" : id === "zlib" ? " (browser encoder)" : ""}`,
      );
    }
    expect(tally.size).toBe(7);

    const multi = readFileSync(path.join(dir, "multi.gz"));
    const raw = readFileSync(path.join(dir, "multi.raw"));
    const out = await codecFor({ id: "gzip" }).decode(multi, {
      expectedSize: raw.length,
      maxSize: raw.length,
    });
    expect(Buffer.compare(out, raw)).toBe(0);
    report.push("gzip: Python's two-member gzip file decodes to both members");
  });
});

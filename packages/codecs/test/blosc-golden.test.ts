/**
 * numcodecs' blosc golden files (numcodecs/fixture/blosc: 13 configurations x 13 arrays).
 *
 * Decoding: every frame must decode to its array, byte for byte.
 *
 * Encoding: Blosc output depends on the c-blosc version that wrote it, and these files were
 * written over the years by several numcodecs releases (arrays 00-04 first, 05-12 later), all
 * older than Debian's numcodecs 0.11 / c-blosc 1.21.3 (which itself reproduces only 46 of them).
 * What varies, and how each mismatch below is classified:
 *  - block size: arrays 00-04 were written with a block size of 256/128 bytes although their
 *    configuration says 0 (automatic). Old numcodecs set c-blosc's *global* block size for codecs
 *    with an explicit blocksize and never reset it, so it leaked into later codecs; c-blosc 1.21
 *    chooses the whole buffer for these small arrays.
 *  - block order: those frames were compressed by several threads, and c-blosc then stores
 *    blocks in the order threads finish them (the offset table says where each one is). Any
 *    single-threaded encoder writes them in order.
 *  - split flag: the writer's c-blosc decided differently whether to split blocks into one
 *    stream per byte of element (flag 0x10). Its default split mode did not split lz4/zlib
 *    blocks where 1.21's "forward compatible" mode does (arrays 05-08), which also changes what
 *    compresses and what is stored raw (memcpyed flag 0x02).
 *  - inner codec version: BloscLZ was rewritten (2.x) in c-blosc 1.19+, snappy and zstd changed
 *    their match finders between releases, so their streams differ even with the same layout.
 *    (Our zstd goes through numcodecs.js's WebAssembly zstd, whose build differs from Debian's
 *    libzstd 1.5.4 at most levels; it agrees at zstd levels 1 and 22, i.e. clevel 1 and 9.)
 * lz4, lz4hc and zlib streams did not change: with the frame's own block size, split flag and
 * block order, our encoder must reproduce those golden frames exactly, and this test checks it.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { type BloscCname, bloscCompress, bloscDecompress, readBloscHeader } from "@z/codecs";
import { useCompressionPaths } from "@z/compression";
import { fixturePath, type GoldenCase, goldenCases, haveFixtures } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PYTHON = "/usr/bin/python3";

interface BloscConfig {
  cname: BloscCname;
  clevel: number;
  shuffle: -1 | 0 | 1 | 2;
  blocksize: number;
}

/** numcodecs' typesize: the item size of the numpy array. */
function itemSize(descr: string): number {
  const m = /^[<>|=]?[a-zA-Z](\d+)/.exec(descr);
  if (!m) throw new Error(`unexpected dtype ${descr}`);
  return Number(m[1]);
}

function optionsFor(c: GoldenCase, blocksize?: number) {
  const cfg = c.config as unknown as BloscConfig;
  const typesize = itemSize(c.array.descr);
  const shuffle = cfg.shuffle === -1 ? (typesize === 1 ? 2 : 1) : cfg.shuffle;
  return {
    cname: cfg.cname,
    clevel: cfg.clevel,
    shuffle,
    typesize,
    blocksize: blocksize ?? cfg.blocksize,
  };
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return (
    a.length === b.length &&
    Buffer.compare(
      Buffer.from(a.buffer, a.byteOffset, a.length),
      Buffer.from(b.buffer, b.byteOffset, b.length),
    ) === 0
  );
}

function int32(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);
}

/**
 * The frame with its blocks stored in index order (what a single-threaded c-blosc writes),
 * rebuilt from the offset table; memcpyed frames are returned as they are.
 */
function inBlockOrder(frame: Uint8Array): Uint8Array {
  const h = readBloscHeader(frame);
  if (h.memcpyed || h.nbytes === 0) return frame;
  const nblocks = Math.ceil(h.nbytes / h.blocksize);
  const starts = Array.from({ length: nblocks }, (_, j) => int32(frame, 16 + 4 * j));
  const sorted = [...starts].sort((a, b) => a - b);
  const end = (s: number) => sorted.find((t) => t > s) ?? h.cbytes;
  const out = new Uint8Array(h.cbytes);
  out.set(frame.subarray(0, 16));
  let pos = 16 + 4 * nblocks;
  starts.forEach((s, j) => {
    out.set(frame.subarray(s, end(s)), pos);
    out.set([pos & 255, (pos >> 8) & 255, (pos >> 16) & 255, pos >>> 24], 16 + 4 * j);
    pos += end(s) - s;
  });
  return out;
}

/** Debian numcodecs 0.11 (c-blosc 1.21.3) encodings of the golden inputs, single-threaded. */
function debianEncodings(cases: GoldenCase[]): Uint8Array[] | undefined {
  if (!existsSync(PYTHON)) return undefined;
  const script = `
import sys, json, base64
import numpy as np
from numcodecs import blosc
from numcodecs.blosc import Blosc
blosc.use_threads = False
out = []
for r in json.load(sys.stdin):
    cfg = {k: v for k, v in r["config"].items() if k != "id"}
    out.append(base64.b64encode(bytes(Blosc(**cfg).encode(np.load(r["array"])))).decode())
json.dump(out, sys.stdout)
`;
  const request = cases.map((c) => {
    const [folder, , file] = c.label.split("/");
    const n = file.split(".")[1];
    return {
      config: c.config,
      array: path.join(fixturePath("numcodecs", "fixture", folder), `array.${n}.npy`),
    };
  });
  const run = spawnSync(PYTHON, ["-c", script], {
    input: JSON.stringify(request),
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) {
    console.warn(
      `[blosc golden] Debian numcodecs comparison SKIPPED: ${run.stderr.toString().trim().split("\n").pop()}`,
    );
    return undefined;
  }
  return (JSON.parse(run.stdout.toString()) as string[]).map(
    (s) => new Uint8Array(Buffer.from(s, "base64")),
  );
}

const fixtures = haveFixtures("blosc golden");
const cases = fixtures ? goldenCases("blosc") : [];

// Both paths of the shuffles and LZ4: SIMD WebAssembly (where the engine has it) and JavaScript.
describe.skipIf(!fixtures).each([
  { simd: true, path: "SIMD WebAssembly where available" },
  { simd: false, path: "JavaScript" },
])("blosc golden files ($path)", ({ simd }) => {
  beforeAll(() => useCompressionPaths({ simd }));
  afterAll(() => useCompressionPaths({ simd: true }));

  it("has the 169 numcodecs golden frames", () => {
    expect(cases.length).toBe(169);
  });

  it("decodes every golden frame exactly", async () => {
    for (const c of cases) {
      const out = await bloscDecompress(c.encoded, {
        expectedSize: c.array.data.length,
        maxSize: c.array.data.length,
      });
      expect(same(out, c.array.data), c.label).toBe(true);
    }
  });

  it("encodes like c-blosc 1.21 and explains every difference from the golden files", async () => {
    const debian = debianEncodings(cases);
    if (!debian)
      console.warn(`[blosc golden] Debian numcodecs comparison SKIPPED: ${PYTHON} not usable`);
    const rows = new Map<
      string,
      { config: string; golden: number; debian: number; layout: number; total: number }
    >();
    for (const [i, c] of cases.entries()) {
      const cfg = c.config as unknown as BloscConfig;
      const ours = await bloscCompress(c.array.data, optionsFor(c));
      const key = c.label.split("/")[1];
      const row = rows.get(key) ?? {
        config: `${cfg.cname} clevel ${cfg.clevel} shuffle ${cfg.shuffle} blocksize ${cfg.blocksize}`,
        golden: 0,
        debian: 0,
        layout: 0,
        total: 0,
      };
      rows.set(key, row);
      row.total++;
      if (same(ours, c.encoded)) row.golden++;

      if (debian) {
        if (same(ours, debian[i])) row.debian++;
        // Identity with c-blosc 1.21.3 for every inner codec we implement natively; zstd only
        // where numcodecs.js's zstd build agrees with libzstd (levels 1 and 22).
        else if (cfg.cname !== "zstd" || cfg.clevel === 1 || cfg.clevel === 9) {
          expect.fail(`${c.label}: differs from Debian numcodecs 0.11 output`);
        }
      }

      // Re-encode with the golden frame's own block size, in block order: only the documented
      // version differences may remain.
      const golden = readBloscHeader(c.encoded);
      const relaid = await bloscCompress(c.array.data, optionsFor(c, golden.blocksize));
      const ordered = inBlockOrder(c.encoded);
      if (same(relaid, ordered)) {
        row.layout++;
        continue;
      }
      const mine = readBloscHeader(relaid);
      const splitDiffers = (golden.flags & 0x12) !== (mine.flags & 0x12);
      const codecChanged =
        cfg.cname === "blosclz" || cfg.cname === "snappy" || cfg.cname === "zstd";
      expect(
        splitDiffers || codecChanged,
        `${c.label}: same layout as the golden frame but different bytes`,
      ).toBe(true);
    }
    console.log(
      "blosc golden encoding (identical frames out of 13 per configuration):\n" +
        [...rows]
          .map(
            ([k, r]) =>
              `  ${k} ${r.config.padEnd(42)} golden ${r.golden}, debian ${debian ? r.debian : "n/a"}, golden with its block size+order ${r.layout}`,
          )
          .join("\n"),
    );
    const totals = [...rows.values()].reduce(
      (a, r) => [a[0] + r.golden, a[1] + r.debian, a[2] + r.layout],
      [0, 0, 0],
    );
    console.log(
      `  total: golden ${totals[0]}/169, debian ${debian ? totals[1] : "n/a"}/169, golden with its block size+order ${totals[2]}/169`,
    );
  });
});

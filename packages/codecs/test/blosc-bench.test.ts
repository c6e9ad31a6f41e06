/**
 * Blosc throughput, ours against numcodecs.js's WebAssembly c-blosc (what zarrita uses), on a
 * 1 MiB float32 chunk of smooth data. A measurement, not a timed test: it only runs with
 *   BLOSC_BENCH=1 pnpm vitest run packages/codecs/test/blosc-bench.test.ts
 * and prints MiB/s (of decoded data) for each configuration.
 */
import { type BloscCname, bloscCompress, bloscDecompress, readBloscHeader } from "@z/codecs";
import { describe, expect, it } from "vitest";

const enabled = process.env.BLOSC_BENCH === "1";
if (!enabled) console.warn("[blosc bench] SKIPPED: set BLOSC_BENCH=1 to measure");

function smoothChunk(): Uint8Array {
  const n = (1 << 20) / 4;
  const a = new Float32Array(n);
  // A 512 x 512 tile of a smooth field (temperature-like), stored as float32.
  for (let y = 0; y < 512; y++) {
    for (let x = 0; x < 512; x++)
      a[y * 512 + x] =
        280 + 12 * Math.sin(x / 40) * Math.cos(y / 55) + 0.01 * ((x * 7 + y * 13) % 17);
  }
  return new Uint8Array(a.buffer);
}

/**
 * Median MiB/s of `a` and of `b`, timed alternately (a, b, a, b, ...) so that both see the same
 * machine load: the ratio is what matters on a shared machine.
 */
async function rates(a: () => unknown, b: () => unknown, bytes: number): Promise<[number, number]> {
  for (let i = 0; i < 5; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  const until = performance.now() + 3000;
  while (performance.now() < until || ta.length < 15) {
    let t0 = performance.now();
    await a();
    ta.push(performance.now() - t0);
    t0 = performance.now();
    await b();
    tb.push(performance.now() - t0);
  }
  const median = (t: number[]) => t.sort((x, y) => x - y)[t.length >> 1];
  const mibs = (t: number[]) => bytes / (1 << 20) / (median(t) / 1000);
  return [mibs(ta), mibs(tb)];
}

describe.skipIf(!enabled)("blosc throughput (1 MiB float32, smooth)", () => {
  it("measures decode and encode against numcodecs.js", async () => {
    const { default: Blosc } = await import("numcodecs/blosc");
    const data = smoothChunk();
    const configs: [BloscCname, 1 | 2][] = [
      ["lz4", 1],
      ["zstd", 1],
      ["blosclz", 2],
    ];
    const lines: string[] = [];
    for (const [cname, shuffle] of configs) {
      const options = { cname, clevel: 5, shuffle, typesize: 4 };
      const wasm = Blosc.fromConfig({ id: "blosc", cname, clevel: 5, shuffle, blocksize: 0 });
      const ours = await bloscCompress(data, options);
      const theirs = await wasm.encode(data);
      // Both are valid frames of the same layout (numcodecs.js writes typesize 4, float32's).
      expect(readBloscHeader(theirs).flags).toBe(readBloscHeader(ours).flags);
      const bound = { expectedSize: data.length, maxSize: data.length };
      const [decOurs, decWasm] = await rates(
        () => bloscDecompress(ours, bound),
        () => wasm.decode(ours),
        data.length,
      );
      const [encOurs, encWasm] = await rates(
        () => bloscCompress(data, options),
        () => wasm.encode(data),
        data.length,
      );
      lines.push(
        `${`${cname}+${shuffle === 1 ? "shuffle" : "bitshuffle"}`.padEnd(18)} ratio ${(data.length / ours.length).toFixed(2).padStart(5)} (wasm ${(data.length / theirs.length).toFixed(2)})  ` +
          `decode ${decOurs.toFixed(0).padStart(5)} vs wasm ${decWasm.toFixed(0).padStart(5)} MiB/s (x${(decOurs / decWasm).toFixed(2)})  ` +
          `encode ${encOurs.toFixed(0).padStart(5)} vs wasm ${encWasm.toFixed(0).padStart(5)} MiB/s (x${(encOurs / encWasm).toFixed(2)})`,
      );
    }
    console.log(
      `blosc, 1 MiB float32 smooth chunk, clevel 5 (ours vs numcodecs.js WebAssembly):\n${lines.join("\n")}`,
    );
  }, 120_000);
});

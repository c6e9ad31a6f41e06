// Re-reading a region, as a viewer does when it pans back: with and without a ChunkCache, on
// the same FsStore array (plain and sharded, per codec). Reports the time of a re-read, the
// store reads (requests) it makes, and the ratio of the times.
//
// `benchChunkCache(options, { dataDir, say })` runs it; `formatChunkCacheReport(report)`
// renders it as a text table. Every read is checked against the values written.

import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { ChunkCache, createArray, FsStore, openArray, slice } from "@z/zarr";
import { CODEC_CONFIGS } from "./codecs.mjs";
import { measure, median } from "./measure.mjs";

const MiB = 1024 * 1024;

/** Array edge and chunk edge per `--size`; shards are 4x4 chunks; the region a quarter of it. */
export const CACHE_SIZES = { full: [4096, 256], small: [2048, 256], tiny: [256, 32] };

/** A store that counts the reads of chunk keys (not metadata), as requests. */
function counting(store) {
  const counter = { reads: 0 };
  const wrapped = new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (property === "get" || property === "getInto" || property === "getRanges") {
        return (key, ...rest) => {
          if (!/(zarr\.json|\.zarray|\.zattrs|\.zgroup)$/.test(key)) counter.reads++;
          return value.call(target, key, ...rest);
        };
      }
      return value.bind(target);
    },
  });
  return { store: wrapped, counter };
}

function checkRegion(label, got, values, edge, [r0, r1, c0, c1]) {
  let k = 0;
  for (let i = r0; i < r1; i++) {
    for (let j = c0; j < c1; j++, k++) {
      if (got.data[k] !== values[i * edge + j])
        throw new Error(
          `${label}: element [${i}, ${j}] is ${got.data[k]}, expected ${values[i * edge + j]}`,
        );
    }
  }
}

/**
 * Reads the region `repeats` times after one read that warms it (and fills the cache), and
 * returns the median time of those re-reads and the store reads each made.
 */
async function rereads(label, arr, counter, region, repeats, check) {
  counter.reads = 0;
  const first = await measure(() => arr.get(region.selection));
  check(`${label} first read`, first.value);
  const firstReads = counter.reads;
  const times = [];
  let reads = 0;
  for (let r = 0; r < repeats; r++) {
    counter.reads = 0;
    const run = await measure(() => arr.get(region.selection));
    check(`${label} re-read`, run.value);
    times.push(run.seconds);
    reads = counter.reads;
  }
  return { firstSeconds: first.seconds, firstReads, seconds: median(times), reads };
}

/**
 * Writes one float32 array per codec and layout, then re-reads a region of it with and without
 * a cache.
 * @returns the report: config, one result per codec and layout
 */
export async function benchChunkCache(options, { dataDir, say = () => {} }) {
  const [edge, chunk] = CACHE_SIZES[options.size] ?? CACHE_SIZES.small;
  const repeats = options.repeats ?? 3;
  const values = Float32Array.from(
    { length: edge * edge },
    (_, i) => Math.sin(i / 97) * 1000 + (i % 7),
  );
  const half = edge / 2;
  const bounds = [edge / 4, edge / 4 + half, edge / 4, edge / 4 + half];
  const region = { selection: [slice(bounds[0], bounds[1]), slice(bounds[2], bounds[3])] };
  const check = (label, got) => checkRegion(label, got, values, edge, bounds);
  const results = [];
  for (const codec of options.codecs ?? ["zstd"]) {
    for (const layout of ["plain", "sharded"]) {
      const root = join(dataDir, `cache-${codec}-${layout}`);
      await rm(root, { recursive: true, force: true });
      await mkdir(root, { recursive: true });
      say(`cache: writing ${edge}x${edge} float32, ${codec}, ${layout}`);
      const chunking =
        layout === "sharded"
          ? { shards: [4 * chunk, 4 * chunk], chunks: [chunk, chunk] }
          : { chunks: [chunk, chunk] };
      const written = await createArray(new FsStore(root), {
        shape: [edge, edge],
        dtype: "float32",
        codecs: CODEC_CONFIGS[codec].codecs,
        ...chunking,
      });
      await written.set(null, { data: values, shape: [edge, edge] });
      const { store, counter } = counting(new FsStore(root));
      say(`cache: re-reading a ${half}x${half} region, ${codec}, ${layout}`);
      const uncached = await rereads(
        "uncached",
        await openArray(store),
        counter,
        region,
        repeats,
        check,
      );
      const cache = new ChunkCache({ maxBytes: 2 * half * half * 4 + 64 * MiB });
      const cachedArray = await openArray(store, { cache });
      const cached = await rereads("cached", cachedArray, counter, region, repeats, check);
      results.push({
        codec,
        layout,
        chunks: ((half / chunk) * half) / chunk,
        uncached,
        cached,
        ratio: uncached.seconds / cached.seconds,
        stats: cache.stats(),
      });
      await rm(root, { recursive: true, force: true });
    }
  }
  return {
    config: { edge, chunk, region: half, repeats, node: process.version },
    results,
  };
}

const ms = (seconds) => (seconds * 1000).toFixed(1);

/** The report as a text table: times in ms (median of the re-reads), store reads per read. */
export function formatChunkCacheReport(report) {
  const { edge, chunk, region, repeats, node } = report.config;
  const lines = [
    `Chunk cache: re-reading a ${region}x${region} float32 region of a ${edge}x${edge} array (${chunk}x${chunk} chunks; shards of 4x4 chunks), median of ${repeats} re-reads, Node ${node}`,
    "",
    "| codec | layout | chunks | re-read, no cache (ms) | re-read, cache (ms) | ratio | store reads, no cache | store reads, cache | first read with cache (ms) |",
    "|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of report.results) {
    lines.push(
      `| ${r.codec} | ${r.layout} | ${r.chunks} | ${ms(r.uncached.seconds)} | ${ms(r.cached.seconds)} | ${r.ratio.toFixed(1)}x | ${r.uncached.reads} | ${r.cached.reads} | ${ms(r.cached.firstSeconds)} |`,
    );
  }
  return lines.join("\n");
}

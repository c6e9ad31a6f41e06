// Variable-length strings: decoding one chunk of 1M short strings with our vlen-utf8 decoder
// and with zarrita's, side by side, and the z.vlen-offsets layout decoded into Arrow.
//
// `benchStrings(options)` runs it and returns a report; `formatStringsReport(report)` renders
// it as a text table. Both libraries decode the same bytes in the same process, alternating
// which goes first; every result is checked against the strings that were encoded.

import {
  fromArrowVector,
  readArrowChunk,
  stringDataType,
  VlenOffsetsCodec,
  VlenUtf8Codec,
} from "@z/zarr";
import * as zarrita from "zarrita";
import { measure, median } from "./measure.mjs";

const MiB = 1024 * 1024;

/** A small deterministic PRNG (mulberry32), so every run decodes the same strings. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
const NON_ASCII = ["é", "ü", "ß", "日本", "Ωμ", "🚀", "ñ"];

/**
 * `count` short strings (1 to 16 characters, like labels and categories): all ASCII, or with
 * one string in four carrying non-ASCII characters.
 */
export function makeStrings(count, seed, unicode) {
  const next = random(seed);
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const length = 1 + Math.floor(next() * 16);
    let s = "";
    for (let k = 0; k < length; k++) s += LETTERS[Math.floor(next() * LETTERS.length)];
    if (unicode && next() < 0.25) s += NON_ASCII[Math.floor(next() * NON_ASCII.length)];
    out[i] = s;
  }
  return out;
}

function sameStrings(label, got, expected) {
  if (got.length !== expected.length)
    throw new Error(`${label}: ${got.length} strings, expected ${expected.length}`);
  for (let i = 0; i < expected.length; i++) {
    if (got[i] !== expected[i]) {
      throw new Error(
        `${label}: string ${i} is ${JSON.stringify(got[i])}, expected ${JSON.stringify(expected[i])}`,
      );
    }
  }
}

/** `runs` measured calls of `fn`, each result checked, after one untimed warm-up call. */
async function timed(runs, fn, check, warm = true) {
  if (warm) check(await fn());
  const samples = [];
  for (let r = 0; r < runs; r++) {
    const result = await measure(fn);
    check(result.value);
    // Keep the numbers, not the million strings: live results would slow every later run's GC.
    result.value = undefined;
    samples.push(result);
  }
  return samples;
}

function stat(samples, count, bytes) {
  const seconds = median(samples.map((s) => s.seconds));
  return {
    seconds,
    mStringsPerSec: count / seconds / 1e6,
    mibPerSec: bytes / MiB / seconds,
    peakMiB: median(samples.map((s) => s.peakMiB)),
  };
}

/**
 * Runs the strings benchmark.
 * @param {{count?: number, repeats?: number, seed?: number, log?: (line: string) => void}} options
 *   count: strings in the chunk (default 1,000,000); repeats: measured runs per library and
 *   case (default 5, after one warm-up each)
 * @returns {Promise<import("./strings.d.mts").StringsReport>}
 */
export async function benchStrings(options = {}) {
  const count = options.count ?? 1_000_000;
  const repeats = options.repeats ?? 5;
  const seed = options.seed ?? 1;
  const log = options.log ?? (() => {});
  const spec = { shape: [count], dataType: stringDataType, fillValue: "" };
  const ours = new VlenUtf8Codec();
  const Theirs = zarrita.registry.get("vlen-utf8")();
  const theirs = Theirs.fromConfig({}, { shape: [count] });
  const results = [];
  for (const unicode of [false, true]) {
    const name = unicode ? "1M short strings, 1 in 4 non-ASCII" : "1M short ASCII strings";
    const label = count === 1_000_000 ? name : name.replace("1M", `${count}`);
    log(`strings: ${label}`);
    const strings = makeStrings(count, seed + (unicode ? 1 : 0), unicode);
    const chunk = { data: strings, shape: [count], stride: [1] };
    // zarrita reads the whole ArrayBuffer of its input, so give it one of its own.
    const vlen = ours.encode(chunk, spec).slice();
    const check = (lib) => (value) => sameStrings(`${lib} ${label}`, value.data, strings);
    await ours.decode(vlen, spec);
    await theirs.decode(vlen);
    const oursRuns = [];
    const theirRuns = [];
    for (let r = 0; r < repeats; r++) {
      const first = r % 2 === 0;
      if (first)
        oursRuns.push(...(await timed(1, () => ours.decode(vlen, spec), check("ours"), false)));
      theirRuns.push(...(await timed(1, () => theirs.decode(vlen), check("zarrita"), false)));
      if (!first)
        oursRuns.push(...(await timed(1, () => ours.decode(vlen, spec), check("ours"), false)));
    }
    const bytes = vlen.length;
    results.push({
      case: label,
      op: "vlen-utf8 chunk -> string[]",
      bytes,
      ours: stat(oursRuns, count, bytes),
      zarrita: stat(theirRuns, count, bytes),
    });

    const offsets = new VlenOffsetsCodec("int32", "utf8");
    const layout = offsets.encode(chunk, spec);
    const arrowCheck = (value) => {
      if (value.length !== count)
        throw new Error(`Arrow ${label}: ${value.length} values, expected ${count}`);
      if (value.data[0].values.buffer !== layout.buffer)
        throw new Error(`Arrow ${label}: the vector copied the chunk`);
    };
    sameStrings(
      `Arrow ${label}`,
      fromArrowVector(await offsets.decodeToArrow(layout, spec)),
      strings,
    );
    const toArrow = await timed(repeats, () => offsets.decodeToArrow(layout, spec), arrowCheck);
    const toArrowTrusted = await timed(
      repeats,
      () => offsets.decodeToArrow(layout, spec, { validateUtf8: false }),
      arrowCheck,
    );
    const toStrings = await timed(repeats, () => offsets.decode(layout, spec), check("ours"));
    results.push(
      {
        case: label,
        op: "z.vlen-offsets chunk -> Arrow Utf8 (zero-copy, UTF-8 checked)",
        bytes: layout.length,
        ours: stat(toArrow, count, layout.length),
        zarrita: null,
      },
      {
        case: label,
        op: "z.vlen-offsets chunk -> Arrow Utf8 (zero-copy, unchecked)",
        bytes: layout.length,
        ours: stat(toArrowTrusted, count, layout.length),
        zarrita: null,
      },
      {
        case: label,
        op: "z.vlen-offsets chunk -> string[]",
        bytes: layout.length,
        ours: stat(toStrings, count, layout.length),
        zarrita: null,
      },
    );

    // A vlen-utf8 chunk read into Arrow through the array API (one copy, no JS strings).
    const store = new Map([["c/0", vlen]]);
    const array = {
      access: {
        stored: { get: async () => store.get("c/0") },
        runner: {
          pipeline: { arrayToArray: [], arrayToBytes: { codec: ours, spec }, bytesToBytes: [] },
          fillChunk: () => ({ data: stringDataType.create(count), shape: [count], stride: [1] }),
        },
      },
      getChunk: async () => undefined,
      chunkKey: () => "c/0",
    };
    const viaArray = await timed(
      repeats,
      () => readArrowChunk(array, [0]),
      (value) => {
        if (value.length !== count)
          throw new Error(`readArrowChunk ${label}: ${value.length} values`);
      },
    );
    results.push({
      case: label,
      op: "vlen-utf8 chunk -> Arrow Utf8 (one copy)",
      bytes,
      ours: stat(viaArray, count, bytes),
      zarrita: null,
    });
  }
  return {
    config: { count, repeats, seed, node: process.version },
    results,
    notes: [
      "zarrita 0.7's vlen-utf8 decoder copies each string's bytes and decodes it with its own TextDecoder call; ours decodes runs of up to 64 KiB with one call each and slices them.",
      "zarrita has no Arrow output; the z.vlen-offsets rows are ours alone.",
    ],
  };
}

const fmt = (value, digits = 1) =>
  value === undefined || value === null ? "n/a" : value.toFixed(digits);

/** The report as text: one row per case and operation, ours next to zarrita and the ratio. */
export function formatStringsReport(report) {
  const rows = [
    [
      "case",
      "operation",
      "ours ms",
      "zarrita ms",
      "ratio",
      "ours M strings/s",
      "ours MiB/s",
      "ours peak MiB",
      "zarrita peak MiB",
    ],
  ];
  for (const r of report.results) {
    rows.push([
      r.case,
      r.op,
      fmt(r.ours.seconds * 1000),
      fmt(r.zarrita && r.zarrita.seconds * 1000),
      r.zarrita ? `${fmt(r.zarrita.seconds / r.ours.seconds, 2)}x` : "n/a",
      fmt(r.ours.mStringsPerSec, 2),
      fmt(r.ours.mibPerSec, 0),
      fmt(r.ours.peakMiB),
      fmt(r.zarrita?.peakMiB),
    ]);
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const line = (row) =>
    `| ${row.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(" | ")} |`;
  const rule = `|${widths.map((w, c) => (c < 2 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [
    `Variable-length strings: one chunk of ${report.config.count} strings, median of ${report.config.repeats} runs; ratio = zarrita time / ours (above 1: we are faster).`,
    line(rows[0]),
    rule,
    ...rows.slice(1).map(line),
    ...report.notes.map((n) => `note: ${n}`),
  ].join("\n");
}

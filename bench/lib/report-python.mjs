// Text tables of the three-way comparison (@z, zarrita, zarr-python 2 on v2 stores) and of the
// sharded read.

const fmt = (value, digits = 1) =>
  value === undefined || value === null || Number.isNaN(value) ? "n/a" : value.toFixed(digits);
const ratioText = (a, b) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}x` : "n/a");

/** A Markdown table, first column left-aligned, the others right-aligned. */
export function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r) =>
    `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(" | ")} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join("\n");
}

const TITLES = {
  write: "Full write (zarrita writes v3 only: n/a)",
  read: "Full read",
  "read-into":
    "Full read into a reused output (`get(null, { out })`, zarr-python 2's `out=`; zarrita has none)",
  chunk: "Single-chunk reads (array opened anew per read)",
  slab: "2-D slab reads ([1, ny, nx], array opened anew per read)",
};

/**
 * The three-way report: speed tables with ratios ours/zarrita and ours/zarr-python 2, then peak
 * RSS of a full read in a fresh process, as a multiple of the output.
 */
export function formatPythonReport({ results, versions, workers, missing }) {
  if (missing) return `zarr-python 2 comparison left out: ${missing}`;
  const out = [
    `@z vs zarrita vs zarr-python ${versions.zarr} (numcodecs ${versions.numcodecs}), v2 arrays written by zarr-python 2;`,
    `our decoding: ${workersLabel(workers)}; MiB/s of the median run.`,
  ];
  for (const op of ["write", "read", "read-into", "chunk", "slab"]) {
    const rows = results.filter((r) => r.op === op);
    if (rows.length === 0) continue;
    out.push("", `${TITLES[op]}${rows[0].reads ? `, ${rows[0].reads} reads` : ""}`);
    const header = [
      "codec",
      "ours",
      "zarrita",
      "zarr-python 2",
      "ours/zarrita",
      "ours/zarr-python 2",
    ];
    out.push(
      table([
        header,
        ...rows.map((r) => [
          r.codec,
          fmt(r.ours?.mibPerSec),
          fmt(r.zarrita?.mibPerSec),
          fmt(r.python?.mibPerSec),
          ratioText(r.ours?.mibPerSec, r.zarrita?.mibPerSec),
          ratioText(r.ours?.mibPerSec, r.python?.mibPerSec),
        ]),
      ]),
    );
  }
  const rss = results.filter((r) => r.op === "rss");
  if (rss.length) {
    out.push(
      "",
      "Peak RSS of a full read above the RSS before it (fresh process), / output size; " +
        "'pool started': after a first read of 8 chunks, so the decode workers' one-time start is not counted",
    );
    out.push(
      table([
        ["codec", "output MiB", "ours", "ours, pool started", "zarrita", "zarr-python 2"],
        ...rss.map((r) => [
          r.codec,
          fmt(r.ours.outputMiB, 0),
          `${fmt(r.ours.peakRssMiB, 0)} (${fmt(r.ours.peakRssMiB / r.ours.outputMiB, 2)}x)`,
          r.oursWarm
            ? `${fmt(r.oursWarm.peakRssMiB, 0)} (${fmt(r.oursWarm.peakRssMiB / r.oursWarm.outputMiB, 2)}x)`
            : "n/a",
          `${fmt(r.zarrita.peakRssMiB, 0)} (${fmt(r.zarrita.peakRssMiB / r.zarrita.outputMiB, 2)}x)`,
          `${fmt(r.python.peakRssMiB, 0)} (${fmt(r.python.peakRssMiB / r.python.outputMiB, 2)}x)`,
        ]),
      ]),
    );
  }
  return out.join("\n");
}

/** The sharded read: ours against zarrita. */
export function formatShardedReport(result) {
  return [
    `Sharded full read (v3, 64³ zstd chunks in [${result.shards}] shards; zarr-python 2 has no sharding)`,
    table([
      ["codec", "ours MiB/s", "zarrita MiB/s", "ratio"],
      [
        result.codec,
        fmt(result.ours.mibPerSec),
        fmt(result.zarrita.mibPerSec),
        ratioText(result.ours.mibPerSec, result.zarrita.mibPerSec),
      ],
    ]),
  ].join("\n");
}

/** How `--workers` reads in the report. */
function workersLabel(workers) {
  if (workers === "auto" || workers === undefined)
    return "the library's default (Node: a shared pool of cores - 1 worker_threads for blosc, lz4, WASM zstd)";
  return workers ? `a pool of ${workers} worker_threads` : "inline, on the main thread";
}

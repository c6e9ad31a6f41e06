// Text tables of the results: one per operation, ours next to zarrita, and a summary line.

const TITLES = {
  write: "Full write",
  read: "Full read (of the array we wrote)",
  chunk: "Single-chunk reads (cold array object per read)",
};

const fmt = (value, digits = 1) =>
  value === undefined || value === null ? "n/a" : value.toFixed(digits);
const ratio = (a, b) => (a === undefined || b === undefined || !(b > 0) ? undefined : a / b);
/** Memory ratios of tiny peaks are noise: only compare peaks of at least 1 MiB. */
const memRatio = (a, b) => (a === undefined || b === undefined || b < 1 ? undefined : a / b);

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r) =>
    `| ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join(" | ")} |`;
  const rule = `|${widths.map((w, c) => (c === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(rows[0]), rule, ...rows.slice(1).map(line)].join("\n");
}

/** The comparable (ours, zarrita) pairs of a result, as ratios (undefined where n/a). */
export function ratiosOf(result) {
  return {
    speed: ratio(result.ours?.mibPerSec, result.zarrita?.mibPerSec),
    memory: memRatio(result.ours?.peakMiB, result.zarrita?.peakMiB),
  };
}

function geomean(values) {
  const xs = values.filter((v) => v !== undefined && v > 0);
  if (xs.length === 0) return undefined;
  return Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length);
}

/** The whole report: a header, one table per operation, notes and a summary line. */
export function formatReport({ config, results, notes }) {
  const out = [];
  out.push(
    `@z vs zarrita: float32 volume [${config.shape}] (${fmt(config.volumeMiB, 0)} MiB), chunks [${config.chunks}], v3 on the file system;`,
    `median of ${config.repeats} runs after a warm-up, libraries alternating;`,
    "peak = most memory held (V8 heap + ArrayBuffers) above the baseline before each run;",
    `our FsStore fsync: ${config.fsync ? "on (its default)" : "off"}; Node ${config.node}; load average ${fmt(config.loadAverage?.start, 1)} at the start, ${fmt(config.loadAverage?.end, 1)} at the end.`,
    "ratio = ours / zarrita: speed above 1 means we are faster, memory below 1 means we use less.",
  );
  for (const op of ["write", "read", "chunk"]) {
    const rows = results.filter((r) => r.op === op);
    if (rows.length === 0) continue;
    out.push(
      "",
      `${TITLES[op]}${op === "chunk" ? `, ${rows[0].chunks} reads of one ${config.chunks.join("x")} chunk` : ""}`,
    );
    const header = [
      "codec",
      "ours MiB/s",
      "zarrita MiB/s",
      "ratio",
      "ours peak MiB",
      "zarrita peak MiB",
      "memory ratio",
    ];
    const body = rows.map((r) => {
      const { speed, memory } = ratiosOf(r);
      return [
        r.codec,
        fmt(r.ours?.mibPerSec),
        fmt(r.zarrita?.mibPerSec),
        speed === undefined ? "n/a" : `${fmt(speed, 2)}x`,
        fmt(r.ours?.peakMiB),
        fmt(r.zarrita?.peakMiB),
        memory === undefined ? "n/a" : `${fmt(memory, 2)}x`,
      ];
    });
    out.push(table([header, ...body]));
    if (op === "write") {
      const sizes = rows.map(
        (r) => `${r.codec} ${fmt(r.ours?.storedMiB)}/${fmt(r.zarrita?.storedMiB)}`,
      );
      out.push(`stored MiB (ours/zarrita): ${sizes.join(", ")}`);
    }
    if (op === "chunk") {
      const rates = rows.map(
        (r) => `${r.codec} ${fmt(r.ours.chunksPerSec, 0)}/${fmt(r.zarrita.chunksPerSec, 0)}`,
      );
      out.push(`chunks/s (ours/zarrita): ${rates.join(", ")}`);
    }
  }
  if (results.some((r) => r.op === "write" && r.codec === "gzip")) {
    out.push(
      "",
      "n/a: zarrita's gzip codec cannot encode; with nothing to compare, our gzip write runs once.",
    );
  }
  for (const note of notes) out.push(`note: ${note}`);
  out.push("", summaryLine(results));
  return out.join("\n");
}

/** One line: geometric means of the speed and memory ratios, and where we are slower. */
export function summaryLine(results) {
  const ratios = results.map((r) => ({ r, ...ratiosOf(r) }));
  const speed = geomean(ratios.map((x) => x.speed));
  const memory = geomean(ratios.map((x) => x.memory));
  const compared = ratios.filter((x) => x.speed !== undefined);
  const slower = compared
    .filter((x) => x.speed < 1)
    .map((x) => `${x.r.op} ${x.r.codec} ${fmt(x.speed, 2)}x`);
  return (
    `Summary: ours/zarrita speed ${fmt(speed, 2)}x (geometric mean of ${compared.length} comparisons), ` +
    `peak memory ${memory === undefined ? "n/a" : `${fmt(memory, 2)}x`}; ` +
    (slower.length
      ? `slower in ${slower.length}: ${slower.join(", ")}.`
      : "faster or equal everywhere.")
  );
}

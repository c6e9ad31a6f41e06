// Results of runs under several Node.js versions, side by side: one row per measured operation,
// per version our speed and the ratios against zarrita and zarr-python 2.
import { table } from "./report-python.mjs";

const fmt = (value, digits = 1) =>
  value === undefined || value === null || Number.isNaN(value) ? "n/a" : value.toFixed(digits);
const ratio = (a, b) => (a > 0 && b > 0 ? `${(a / b).toFixed(2)}x` : "n/a");

/**
 * The rows of one run's results (the JSON run.mjs writes): `{key, ours, unit, zarrita, python}`
 * with `zarrita` and `python` as ratios ours/theirs (text), keyed so that runs line up.
 */
export function comparableRows(results) {
  const rows = [];
  const speed = (key, unit, value, ours, zarrita, python) =>
    rows.push({
      key,
      ours: `${fmt(value(ours), unit === "GB/s" ? (value(ours) < 0.1 ? 4 : 2) : 0)} ${unit}`,
      // undefined: not a participant of this operation (blank); null: could not do it (n/a).
      zarrita: zarrita === undefined ? "" : ratio(value(ours), value(zarrita)),
      python: python === undefined ? "" : ratio(value(ours), value(python)),
    });
  const mib = (s) => s?.mibPerSec;
  const gb = (s) => s?.gbPerSec;
  for (const r of results.results ?? [])
    speed(`v3 ${r.op}, ${r.codec}`, "MiB/s", mib, r.ours, r.zarrita);
  for (const r of results.versusPython?.results ?? []) {
    if (r.op === "rss") {
      const of = (s) => (s ? `${fmt(s.peakRssMiB / s.outputMiB, 2)}x output` : "n/a");
      rows.push({ key: `v2 peak RSS, ${r.codec}`, ours: of(r.ours), zarrita: "", python: "" });
      continue;
    }
    speed(`v2 ${r.op}, ${r.codec}`, "MiB/s", mib, r.ours, r.zarrita, r.python);
  }
  if (results.sharded)
    speed(
      `v3 sharded read, ${results.sharded.codec}`,
      "MiB/s",
      mib,
      results.sharded.ours,
      results.sharded.zarrita,
    );
  for (const r of results.strings?.results ?? [])
    speed(`strings ${r.case}: ${r.op}`, "MiB/s", mib, r.ours, r.zarrita);
  for (const r of results.large?.results ?? [])
    speed(`large ${r.variant} (${results.large.edge}³)`, "GB/s", gb, r.ours, r.zarrita, r.python);
  for (const r of results.browser?.results ?? [])
    speed(`browser ${r.variant} (${results.browser.edge}³)`, "GB/s", gb, r.ours, r.zarrita);
  return rows;
}

/**
 * One table of several runs (`[{label, results}]`, e.g. Node 20 and Node 24), side by side: per
 * run, our speed and ours/zarrita, ours/zarr-python 2 (above 1: we are faster).
 */
export function formatSideBySide(runs) {
  const perRun = runs.map((run) => new Map(comparableRows(run.results).map((r) => [r.key, r])));
  const keys = [];
  for (const rows of perRun) for (const key of rows.keys()) if (!keys.includes(key)) keys.push(key);
  const header = ["operation"];
  for (const run of runs) header.push(`${run.label}: ours`, "/ zarrita", "/ zarr-python 2");
  const body = keys.map((key) => {
    const cells = [key];
    for (const rows of perRun) {
      const row = rows.get(key);
      cells.push(row?.ours ?? "n/a", row?.zarrita ?? "", row?.python ?? "");
    }
    return cells;
  });
  return [
    `Side by side (${runs.map((r) => r.label).join(", ")}): our speed, and ours / zarrita, ours / zarr-python 2 (above 1: we are faster)`,
    table([header, ...body]),
  ].join("\n");
}

import type { NumericStats } from "./numeric-stats.js";

/** A value as `zarr get --json` writes one: NaN and infinities as strings, big integers as decimal strings. */
function jsonNumber(value: number | bigint | null): number | string | null {
  if (value === null) return null;
  if (typeof value === "bigint")
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  return value;
}

/**
 * The `stats` object of `zarr info --stats --json`: `count`, `nan_count`, `inf_count`, `min`,
 * `max`, `mean` and `histogram` (`edges`, `counts`) for numbers; `count`, `true_count`,
 * `false_count`, `min`, `max` (booleans) and `mean` (the share of true) for booleans.
 */
export function statsJson(stats: NumericStats): Record<string, unknown> {
  if (stats.kind === "bool") {
    const flag = (v: number | bigint | null) => (v === null ? null : Number(v) !== 0);
    return {
      count: stats.count,
      true_count: stats.trueCount,
      false_count: stats.count - stats.trueCount,
      min: flag(stats.min),
      max: flag(stats.max),
      mean: jsonNumber(stats.mean),
    };
  }
  return {
    count: stats.count,
    nan_count: stats.nanCount,
    inf_count: stats.infCount,
    min: jsonNumber(stats.min),
    max: jsonNumber(stats.max),
    mean: jsonNumber(stats.mean),
    histogram: stats.histogram && {
      edges: stats.histogram.edges.map(jsonNumber),
      counts: stats.histogram.counts,
    },
  };
}

/** A number for the table: six significant digits, integers in full. */
function shown(value: number | bigint | null): string {
  if (value === null) return "none";
  if (typeof value === "bigint" || Number.isInteger(value)) return String(value);
  return Number.isFinite(value) ? String(Number(value.toPrecision(6))) : String(value);
}

/** The rows `zarr info --stats` adds to the table. */
export function statsRows(stats: NumericStats): [string, string][] {
  if (stats.kind === "bool") {
    return [
      ["Count", String(stats.count)],
      ["True", String(stats.trueCount)],
      ["False", String(stats.count - stats.trueCount)],
    ];
  }
  const rows: [string, string][] = [
    ["Count", String(stats.count)],
    ["NaN count", String(stats.nanCount)],
    ["Infinities", String(stats.infCount)],
    ["Min", shown(stats.min)],
    ["Max", shown(stats.max)],
    ["Mean", shown(stats.mean)],
  ];
  const histogram = stats.histogram;
  if (histogram === null) return [...rows, ["Histogram", "none (no finite values)"]];
  rows.push(["Histogram", `${histogram.counts.length} bins of the finite values`]);
  histogram.counts.forEach((count, i) => {
    const last = i === histogram.counts.length - 1;
    const range = `[${shown(histogram.edges[i])}, ${shown(histogram.edges[i + 1])}${last ? "]" : ")"}`;
    rows.push([`  ${range}`, String(count)]);
  });
  return rows;
}

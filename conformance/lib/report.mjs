// Judging each read and counting: what passed, what we refuse on purpose, and what failed,
// with the failures grouped by cause across ways and modes so one bug reads as one line.
import { refusalFor } from "./not-supported.mjs";

/**
 * The verdict on one read: "equal" (to a reference), "read" (no reference reads it; we read
 * it without error), "refused" (a documented refusal, with its typed error), "not applicable"
 * (the way cannot address it, e.g. zip files in the minimal assembly) or "failed" (with why).
 */
export function judge(entry, line, way) {
  const contract = line.contract?.length ? `CLI contract: ${line.contract.join("; ")}` : undefined;
  switch (line.status) {
    case "not applicable":
      return { verdict: "not applicable", reason: line.detail };
    case "equal":
      if (contract) return { verdict: "failed", cause: "CLI output", reason: contract };
      return {
        verdict: "equal",
        reason: entry.disagreement ? `matches ${line.matched.join(", ")}` : undefined,
      };
    case "read":
      if (contract) return { verdict: "failed", cause: "CLI output", reason: contract };
      return { verdict: "read" };
    case "differs":
      return { verdict: "failed", cause: "read wrong", reason: line.differences.join("; ") };
    default: {
      const error = line.error ?? { name: "Error", message: "no result", typed: false };
      const refusal = error.typed ? refusalFor(entry, way, error.name) : undefined;
      if (refusal) return { verdict: "refused", reason: refusal.what };
      const text = `${error.name}: ${error.message}`;
      if (entry.refs.length > 0)
        return { verdict: "failed", cause: "fails where a reference reads it", reason: text };
      if (!error.typed)
        return { verdict: "failed", cause: "untyped error (no reference reads it)", reason: text };
      return { verdict: "failed", cause: "typed error, not a documented refusal", reason: text };
    }
  }
}

/** Counts of one run: arrays, verdicts, and reasons for everything not equal. */
export function countRun(plan, run) {
  const counts = {
    arrays: run.lines.size,
    equal: 0,
    read: 0,
    refused: 0,
    "not applicable": 0,
    failed: 0,
  };
  const reasons = new Map();
  const failures = [];
  for (const [i, line] of run.lines) {
    const entry = plan.arrays[i];
    const v = judge(entry, line, run.way);
    counts[v.verdict]++;
    if (v.verdict === "refused" || v.verdict === "not applicable") {
      const key = `${v.verdict}: ${v.reason}`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
    if (v.verdict === "failed") failures.push({ id: entry.id, cause: v.cause, reason: v.reason });
  }
  return { counts, reasons, failures };
}

/** A failure's message with the particulars (paths, numbers, names in quotes) folded. */
function signature(reason) {
  return reason
    .replace(/(\/[^\s:,'"]+)+/g, "<path>")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\[[^\]]*\]/g, "[…]")
    .replace(/\d+(\.\d+)?/g, "N")
    .slice(0, 160);
}

/** Failures grouped by cause and message across runs: the arrays and the runs of each. */
export function groupFailures(runs) {
  const groups = new Map();
  for (const { label, failures } of runs) {
    for (const f of failures) {
      const key = `${f.cause} | ${signature(f.reason)}`;
      let g = groups.get(key);
      if (!g)
        groups.set(
          key,
          (g = { cause: f.cause, example: f.reason, arrays: new Set(), runs: new Set() }),
        );
      g.arrays.add(f.id);
      g.runs.add(label);
    }
  }
  return [...groups.values()].sort((a, b) => b.arrays.size - a.arrays.size);
}

/** Lines for a group of failures: count, cause, runs, an example message and the arrays. */
export function describeGroup(g, maxArrays = 12) {
  const arrays = [...g.arrays];
  return [
    `${arrays.length} array(s), ${g.cause}, in ${[...g.runs].join("; ")}`,
    `    e.g. ${g.example.slice(0, 300)}`,
    ...arrays.slice(0, maxArrays).map((id) => `    - ${id}`),
    ...(arrays.length > maxArrays ? [`    - ... and ${arrays.length - maxArrays} more`] : []),
  ];
}

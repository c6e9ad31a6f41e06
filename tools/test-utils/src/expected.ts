import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fixturePath, fixturesDir } from "./fixtures.js";

/** The values another implementation read from a fixture array. */
export interface ExpectedArray {
  /** `<fixture folder>/<path>`, e.g. `zarrita/v3/data.zarr/1d.chunked.i2`. */
  label: string;
  /** Folder of the hierarchy's root in the fixtures (the store root). */
  storeRoot: string;
  /** The array's path inside that hierarchy. */
  path: string;
  /** Which reader produced the values (`zarr 2.13` or `zarr 3.1.6`). */
  reader: string;
  /** Shape as read. */
  shape: number[];
  /** NumPy dtype string. */
  dtype: string;
  /** Fill value as read. */
  fillValue: unknown;
  /** Values flattened in C order, JSON-encoded as the fixtures README describes. */
  values: unknown[];
  /** The other reader's values, where two readers disagreed, keyed by reader. */
  otherReadings: Record<string, unknown[]>;
}

/** Hierarchy roots inside the fixtures, and where their expected values live. */
const ROOTS: { expected: string; store: string }[] = [
  { expected: "zarrita/v2/data.zarr", store: "zarrita/v2/data.zarr" },
  { expected: "zarrita/v3/data.zarr", store: "zarrita/v3/data.zarr" },
  { expected: "zarr-python-v2", store: "zarr-python-v2/fixture" },
];

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

/**
 * Every fixture array with expected values, one entry per array: zarr-python 3's reading when
 * there is one (for v2 `fill_value: null` it returns zeros where zarr-python 2 returns
 * uninitialised memory), otherwise zarr-python 2's. Empty when the fixtures are absent.
 */
export function expectedArrays(): ExpectedArray[] {
  if (!fixturesDir) return [];
  const found: ExpectedArray[] = [];
  for (const root of ROOTS) {
    const base = fixturePath("expected", root.expected);
    const files = walk(base, []).filter((f) => /_expected.*\.json$/.test(f));
    const byDir = new Map<string, string[]>();
    for (const file of files)
      byDir.set(path.dirname(file), [...(byDir.get(path.dirname(file)) ?? []), file]);
    for (const [dir, candidates] of [...byDir].sort()) {
      const chosen = candidates.find((f) => f.includes("zarr-3")) ?? candidates[0];
      const doc = JSON.parse(readFileSync(chosen, "utf8"));
      const otherReadings: Record<string, unknown[]> = {};
      for (const other of candidates.filter((f) => f !== chosen)) {
        const otherDoc = JSON.parse(readFileSync(other, "utf8"));
        otherReadings[otherDoc.reader ?? path.basename(other)] = otherDoc.values_c_order;
      }
      const rel = path.relative(base, dir).split(path.sep).join("/");
      found.push({
        label: `${root.expected}/${rel}`,
        storeRoot: fixturePath(root.store),
        path: rel,
        reader: doc.reader ?? path.basename(chosen),
        shape: doc.shape,
        dtype: typeof doc.dtype === "string" ? doc.dtype : JSON.stringify(doc.dtype),
        fillValue: doc.fill_value,
        values: doc.values_c_order,
        otherReadings,
      });
    }
  }
  return found;
}

/**
 * The values our reader must give for a fixture array. `nested_legacy` is the one array whose
 * two readers disagree by design: it is a v2 array with nested keys but no
 * `dimension_separator`, which zarr-python 2 (and we) read as nested while zarr-python 3 reads
 * flat keys and finds nothing.
 */
export function expectedValues(entry: ExpectedArray): unknown[] {
  if (!entry.label.endsWith("/nested_legacy")) return entry.values;
  const zarr2 = Object.entries(entry.otherReadings).find(([reader]) => reader.startsWith("zarr2"));
  if (!zarr2)
    throw new Error("nested_legacy: zarr-python 2's reading is missing from the fixtures");
  return zarr2[1];
}

/**
 * A value in our JSON form as the fixtures write it: bytes are `{"base64": ...}` in ours and
 * `{"b64": ...}` without trailing NULs in theirs; anything else is left as it is.
 */
export function toFixtureEncoding(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("base64" in value))
    return value;
  const bytes = Buffer.from((value as { base64: string }).base64, "base64");
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return { b64: bytes.subarray(0, end).toString("base64") };
}

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ExpectedArray } from "./expected.js";

/**
 * Fixture arrays whose features are not implemented yet, each with the reason. The conformance
 * tests read every other array and list these with their reasons, so what is left out is
 * visible in every run.
 */
const DEFERRED_DTYPES: [RegExp, string][] = [];

const DEFERRED_CODECS: [RegExp, string][] = [];

/** Why a fixture array is left out of the conformance run, or undefined when it is read. */
export function deferredReason(entry: ExpectedArray): string | undefined {
  for (const [pattern, reason] of DEFERRED_DTYPES) if (pattern.test(entry.dtype)) return reason;
  const dir = path.join(entry.storeRoot, entry.path);
  for (const doc of ["zarr.json", ".zarray"]) {
    const file = path.join(dir, doc);
    if (!existsSync(file)) continue;
    const text = readFileSync(file, "utf8");
    for (const [pattern, reason] of DEFERRED_CODECS) if (pattern.test(text)) return reason;
  }
  return undefined;
}

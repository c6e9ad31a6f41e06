import { open } from "@z/zarr";
import { EXACT, type Tolerance } from "../compare/element-equality.js";
import { type Comparison, compareNodes } from "../compare/node-comparison.js";
import { jsonText } from "../json-values.js";
import { openLocation } from "../location.js";
import type { Output } from "../output.js";

/** Options of `zarr compare`. */
export interface CompareOptions {
  /** The node to compare in both locations (default the roots). */
  path?: string;
  /** Relative tolerance for numbers (default 0). */
  rtol?: number;
  /** Absolute tolerance for numbers (default 0). */
  atol?: number;
  /** NaN equals NaN. */
  equalNan?: boolean;
  /** Compare metadata only. */
  metadataOnly?: boolean;
  /** Differing elements printed per array (default 10). */
  limit?: number;
  /** Print one JSON object instead of the report. */
  json?: boolean;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** Whether two hierarchies compared equal. */
export const isEqual = (c: Comparison) => c.metadata.length === 0 && c.values.length === 0;

/** The report `zarr compare` prints: each difference, then a summary line. */
export function comparisonReport(c: Comparison, a: string, b: string): string {
  const lines: string[] = [];
  for (const d of c.metadata) {
    lines.push(
      d.field === "exists"
        ? `${d.path}: only in ${d.a ? a : b}`
        : `${d.path}: ${d.field} ${jsonText(d.a)} != ${jsonText(d.b)}`,
    );
  }
  for (const v of c.values) {
    for (const e of v.first)
      lines.push(`${v.path}[${e.index.join(", ")}]: ${jsonText(e.a)} != ${jsonText(e.b)}`);
    if (v.differing > v.first.length)
      lines.push(`${v.path}: ... (${v.differing - v.first.length} more)`);
    const largest =
      v.maxAbsDifference === null ? "" : `, largest absolute difference ${v.maxAbsDifference}`;
    lines.push(`${v.path}: ${v.differing} of ${v.compared} elements differ${largest}`);
  }
  const compared = `${plural(c.arrays, "array")}, ${plural(c.groups, "group")} compared`;
  if (isEqual(c)) {
    lines.push(`${a} and ${b} are equal (${compared})`);
  } else {
    const elements = c.values.reduce((n, v) => n + v.differing, 0);
    lines.push(
      `${a} and ${b} differ: ${plural(c.metadata.length, "metadata difference")}, ` +
        `${plural(elements, "differing element")} in ${plural(c.values.length, "array")} (${compared})`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `zarr compare <a> <b>`: compares two arrays or hierarchies, v2 or v3, whatever their
 * chunking and codecs: metadata (shape, data type, fill value, attributes, members) and values
 * element by element, one block at a time. Prints the differences found (the first differing
 * elements of each array with their indices and values) and a summary, or one JSON object.
 * @returns 0 when they are equal, 1 when they differ (errors are thrown; `zarr` exits 2)
 */
export async function compareCommand(
  output: Output,
  first: string,
  second: string,
  options: CompareOptions = {},
): Promise<number> {
  const tolerance: Tolerance = {
    rtol: options.rtol ?? EXACT.rtol,
    atol: options.atol ?? EXACT.atol,
    equalNan: options.equalNan ?? EXACT.equalNan,
  };
  const [storeA, storeB] = await Promise.all([openLocation(first), openLocation(second)]);
  const [a, b] = await Promise.all([
    open(storeA, { path: options.path }),
    open(storeB, { path: options.path }),
  ]);
  const found = await compareNodes(a, b, {
    tolerance,
    metadataOnly: Boolean(options.metadataOnly),
    limit: options.limit ?? 10,
  });
  if (options.json) {
    output.out(
      `${jsonText({
        equal: isEqual(found),
        arrays: found.arrays,
        groups: found.groups,
        metadata: found.metadata,
        values: found.values.map((v) => ({
          path: v.path,
          compared: v.compared,
          differing: v.differing,
          max_abs_difference: v.maxAbsDifference,
          first: v.first,
        })),
      })}\n`,
    );
  } else {
    output.out(comparisonReport(found, first, second));
  }
  return isEqual(found) ? 0 : 1;
}

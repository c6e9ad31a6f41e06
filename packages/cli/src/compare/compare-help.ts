import type { OptionSpec } from "../args.js";

/** The options `zarr compare` adds to the command line. */
export const COMPARE_OPTION_SPECS: Readonly<Record<string, OptionSpec>> = {
  rtol: { type: "string" },
  atol: { type: "string" },
  "equal-nan": { type: "boolean" },
  "metadata-only": { type: "boolean" },
};

/** The `zarr compare` entry of the command list and its `--help`. */
export const COMPARE_SPEC = {
  usage: `compare <a> <b> [--path P] [--rtol R] [--atol A] [--equal-nan] [--metadata-only]
       [--json]`,
  summary: "compare two arrays or hierarchies, values and metadata",
  details: `Compares the nodes at --path (default the roots) of <a> and <b>: shape, data type, fill
value (a v2 null fill value matches any), attributes and group members, and the values element
by element, one block at a time (bounded memory). Format (v2 or v3), chunking and codecs may
differ: values are compared, not chunks. Prints each difference (the first 10 differing
elements of an array with their index and both values) and a summary line. Exits 0 when
equal, 1 when different, 2 on an error.

  --rtol R, --atol A   numbers a, b are equal when |a - b| <= A + R * |b| (default exact)
  --equal-nan          NaN equals NaN (by default it equals nothing, as in NumPy)
  --metadata-only      compare metadata only, not values
  --json               one JSON object: equal, arrays, groups, metadata, values

<a> and <b> are locations as below.`,
  options: ["path", "rtol", "atol", "equal-nan", "metadata-only", "json"],
};

// What one read of an array gave, judged the same way for every way of reading: the CLI's JSON
// checked against its contract, errors sorted into typed (@z errors, which say what and where)
// and untyped, and the comparison with each reference.
import { readFileSync } from "node:fs";
import { canonicalValues, difference } from "./values.mjs";

export { valuesOf } from "./values-of.mjs";

const BRAND = Symbol.for("@z/error");
const UNTYPED = new Set([
  "Error",
  "TypeError",
  "RangeError",
  "ReferenceError",
  "SyntaxError",
  "AggregateError",
]);

/** Checks `zarr get --json`'s contract (DESIGN.md section 3) and returns what it printed. */
export function cliResult(code, stdout, stderr) {
  if (code !== 0) {
    const name = /: ([A-Z][A-Za-z0-9]*Error): /.exec(stderr)?.[1] ?? "Error";
    const error = new Error(stderr.trim().split("\n")[0]);
    error.name = name;
    error.exitCode = code;
    if (!UNTYPED.has(name)) error[BRAND] = true;
    throw error;
  }
  const contract = [];
  if (stderr !== "") contract.push(`printed on stderr: ${stderr.trim().slice(0, 200)}`);
  const lines = stdout.trimEnd().split("\n");
  if (lines.length !== 1) contract.push(`${lines.length} lines on stdout, not one`);
  const result = JSON.parse(lines[0]);
  const keys = Object.keys(result).join(",");
  if (keys !== "shape,dtype,fill_value,values") contract.push(`keys ${keys}`);
  return { shape: result.shape, values: result.values, direct: false, contract };
}

/** An error as the results record it. */
export function describeError(error) {
  const name = typeof error?.name === "string" ? error.name : "Error";
  const message = String(error?.message ?? error)
    .split("\n")[0]
    .slice(0, 400);
  const typed = error?.[BRAND] === true && !UNTYPED.has(name);
  return { name, message, typed };
}

/** Compares a read with each distinct reference reading: the readers it matches, how it differs from the others. */
export function compareWithReferences(entry, ours) {
  const matched = [];
  const differences = [];
  for (const ref of entry.refs) {
    const { canon } = JSON.parse(readFileSync(ref.file, "utf8"));
    const diff = difference(ours.shape, canonicalValues(ours.values, ref.dtype), ref.shape, canon);
    if (diff === undefined) matched.push(...ref.readers);
    else differences.push(`${ref.readers.join(", ")}: ${diff}`);
  }
  return { matched, differences };
}

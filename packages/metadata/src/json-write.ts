// The JSON writer, in a file of its own so that a module needing only these does not
// load json.ts with them (first-load size: packages/zarr/test/bundlers/sizes.test.ts).

import { formatValue } from "@z/errors";
import { MetadataError, MetadataLimitError } from "./errors.js";
import { metadataLimits } from "./limits.js";

/**
 * Serialises a JSON value, writing `bigint` as exact integer digits, -0 as `-0.0` and
 * non-finite numbers as the strings `"NaN"`, `"Infinity"`, `"-Infinity"` (metadata never holds
 * bare NaN).
 * @throws MetadataError for a value JSON cannot hold (a function, a symbol); MetadataLimitError
 *   for nesting deeper than `maxJsonDepth` (a cycle included)
 */
export function stringifyJson(value: unknown, indent = 2): string {
  return write(value, indent, "", 0);
}

function write(value: unknown, indent: number, pad: string, depth: number): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number") {
    if (Number.isNaN(value)) return '"NaN"';
    if (!Number.isFinite(value)) return value > 0 ? '"Infinity"' : '"-Infinity"';
    // JSON.stringify drops the sign of -0; "-0.0" keeps it for every reader (Python's json
    // reads "-0" as the integer 0).
    if (Object.is(value, -0)) return "-0.0";
    return JSON.stringify(value);
  }
  if (typeof value === "string") return asciiJsonString(value);
  if (typeof value === "boolean") return JSON.stringify(value);
  if (typeof value !== "object")
    throw new MetadataError(`Cannot write ${formatValue(value)} (a ${typeof value}) as JSON`);
  const { maxJsonDepth } = metadataLimits();
  if (depth >= maxJsonDepth) {
    throw new MetadataLimitError(
      `Cannot write JSON nested more than ${maxJsonDepth} levels deep (or holding a cycle)`,
      "maxJsonDepth",
      maxJsonDepth,
      depth + 1,
    );
  }
  const inner = indent > 0 ? pad + " ".repeat(indent) : "";
  const nl = indent > 0 ? "\n" : "";
  const sep = indent > 0 ? ": " : ":";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((v) => inner + write(v, indent, inner, depth + 1));
    return `[${nl}${items.join(`,${nl}`)}${nl}${pad}]`;
  }
  const entries = Object.entries(value as object).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return "{}";
  const items = entries.map(
    ([k, v]) => `${inner}${asciiJsonString(k)}${sep}${write(v, indent, inner, depth + 1)}`,
  );
  return `{${nl}${items.join(`,${nl}`)}${nl}${pad}}`;
}

/**
 * A JSON string literal with every non-ASCII character escaped as `\uXXXX`, as Python's json
 * module writes by default: zarr-python 2 reads metadata as ASCII and fails on raw UTF-8.
 */
function asciiJsonString(text: string): string {
  return JSON.stringify(text).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** Encodes a JSON value as UTF-8 bytes (see {@link stringifyJson}). */
export function encodeJson(value: unknown, indent = 2): Uint8Array {
  return new TextEncoder().encode(stringifyJson(value, indent));
}

import { UsageError } from "../errors.js";

function tolerance(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0)
    throw new UsageError(`--${name} must be a number >= 0, got ${value}`, "compare");
  return n;
}

/**
 * The options of `zarr compare` from the parsed command line.
 * @throws UsageError for a tolerance that is not a number >= 0
 */
export function parseCompareOptions(values: Record<string, string>, flags: Record<string, number>) {
  return {
    path: values.path,
    rtol: tolerance("rtol", values.rtol),
    atol: tolerance("atol", values.atol),
    equalNan: Boolean(flags["equal-nan"]),
    metadataOnly: Boolean(flags["metadata-only"]),
  };
}

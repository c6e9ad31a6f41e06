import { openArray, parseSelection } from "@z/zarr";
import { UsageError } from "../errors.js";
import { writeJsonResult } from "../json-values.js";
import { openLocation } from "../location.js";
import type { Output } from "../output.js";

/** Options of `zarr get`. */
export interface GetOptions {
  /** The array's path in the hierarchy. */
  path?: string;
  /** A NumPy-style selection, e.g. `0:10,::-1,3`. */
  select?: string;
  /** Print the JSON object of DESIGN.md section 3 (the only output form so far). */
  json?: boolean;
}

/** `zarr get <location> [--path P] [--select SEL] --json`: prints the selected values as JSON. */
export async function getCommand(
  output: Output,
  location: string,
  options: GetOptions,
): Promise<void> {
  if (!options.json) throw new UsageError("zarr get needs --json (the only output format so far)");
  const store = await openLocation(location);
  const array = await openArray(store, { path: options.path });
  const result = await array.get(parseSelection(options.select ?? ""));
  writeJsonResult(output, array, result);
}

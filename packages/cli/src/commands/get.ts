import {
  normalizeSelection,
  type OrthogonalItem,
  openArray,
  parseSelection,
  selectionShape,
  type ZarrArray,
} from "@z/zarr";
import { writeJsonResult } from "../json-values.js";
import { openLocation } from "../location.js";
import { EDGE_ITEMS, formatNumpy, SUMMARY_THRESHOLD } from "../numpy-print.js";
import type { Output } from "../output.js";

/** Options of `zarr get`. */
export interface GetOptions {
  /** The array's path in the hierarchy. */
  path?: string;
  /** A NumPy-style selection, e.g. `0:10,::-1,3`. */
  select?: string;
  /** Print one JSON object (shape, dtype, fill_value, values; see the CLI README) instead of NumPy's layout. */
  json?: boolean;
}

/**
 * `zarr get <location> [--path P] [--select SEL] [--json]`: prints the selected values as
 * NumPy prints an array, or as one JSON object with `--json`.
 */
export async function getCommand(
  output: Output,
  location: string,
  options: GetOptions,
): Promise<void> {
  const store = await openLocation(location);
  const array = await openArray(store, { path: options.path });
  const selection = parseSelection(options.select ?? "");
  if (options.json) {
    writeJsonResult(output, array, await array.get(selection));
    return;
  }
  output.out(`${await printSelection(array, selection)}\n`);
}

/**
 * The NumPy-style print of a selection. Above {@link SUMMARY_THRESHOLD} elements only the
 * first and last {@link EDGE_ITEMS} items of each long axis are read (one orthogonal read),
 * so printing a huge array reads a few chunks, not all of them.
 */
export async function printSelection(
  array: ZarrArray,
  selection: ReturnType<typeof parseSelection>,
): Promise<string> {
  const axes = normalizeSelection(selection, array.shape);
  const size = selectionShape(axes).reduce((a, b) => a * b, 1);
  if (size <= SUMMARY_THRESHOLD) {
    const result = await array.get(selection);
    return formatNumpy(array.metadata.dataType, result, []);
  }
  const summarised: boolean[] = [];
  const items: OrthogonalItem[] = axes.map((axis) => {
    if (axis.kind === "int") return axis.index;
    const long = axis.count > 2 * EDGE_ITEMS;
    summarised.push(long);
    const positions = long
      ? [
          ...Array.from({ length: EDGE_ITEMS }, (_, i) => i),
          ...Array.from({ length: EDGE_ITEMS }, (_, i) => axis.count - EDGE_ITEMS + i),
        ]
      : Array.from({ length: axis.count }, (_, i) => i);
    return positions.map((i) => axis.start + i * axis.step);
  });
  const result = await array.getOrthogonal(items);
  return formatNumpy(array.metadata.dataType, result, summarised);
}

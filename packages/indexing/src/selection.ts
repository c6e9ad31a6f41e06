import { formatValue } from "@z/errors";
import { SelectionError } from "./errors.js";
import { normalizeIndex } from "./selection-index.js";
import { isSlice, type Slice } from "./slice.js";
import { resolveSlice } from "./slice-resolve.js";

/**
 * One item of a basic selection: an integer (negative counts from the end), a {@link Slice},
 * `null` for a whole axis, or `"..."` (ellipsis) for as many whole axes as needed.
 */
export type SelectionItem = number | Slice | null | "...";

/** A basic selection: one item per axis (fewer are padded with whole axes); `null`, `undefined` or `[]` select everything. */
export type BasicSelection = readonly SelectionItem[] | SelectionItem | undefined;

/** The selection along one axis after normalisation. */
export type AxisSelection =
  | { kind: "int"; index: number }
  | { kind: "slice"; start: number; step: number; count: number };

/**
 * Resolves a basic selection against an array shape: expands the ellipsis, pads missing
 * axes, wraps negative indices and checks bounds.
 * @throws BoundsError for an index outside its axis; SelectionError for too many items, two
 *   ellipses, a zero step or a non-integer index
 */
export function normalizeSelection(
  selection: BasicSelection,
  shape: readonly number[],
): AxisSelection[] {
  const items = toItems(selection);
  const ellipses = items.filter((item) => item === "...").length;
  if (ellipses > 1) throw new SelectionError("A selection can have only one ellipsis ('...')");
  const explicit = items.length - ellipses;
  if (explicit > shape.length) {
    throw new SelectionError(
      `Too many indices: the array has ${shape.length} dimension${shape.length === 1 ? "" : "s"} but the selection has ${explicit}`,
    );
  }
  const expanded: SelectionItem[] = [];
  for (const item of items) {
    if (item === "...") for (let k = 0; k < shape.length - explicit; k++) expanded.push(null);
    else expanded.push(item);
  }
  while (expanded.length < shape.length) expanded.push(null);
  return expanded.map((item, axis) => normalizeItem(item, shape[axis], axis));
}

function toItems(selection: BasicSelection): readonly SelectionItem[] {
  if (selection === undefined || selection === null) return [];
  if (Array.isArray(selection)) return selection;
  return [selection as SelectionItem];
}

function normalizeItem(item: SelectionItem, length: number, axis: number): AxisSelection {
  if (item === null) return { kind: "slice", start: 0, step: 1, count: length };
  if (typeof item === "number") return { kind: "int", index: normalizeIndex(item, length, axis) };
  if (isSlice(item)) return { kind: "slice", ...resolveSlice(item, length, axis) };
  throw new SelectionError(
    `Axis ${axis}: cannot select with ${formatValue(item, { bigint: "suffix" })}; use an integer, slice(), null or "..."`,
  );
}

/** The shape of what a normalised selection selects (integer axes are dropped). */
export function selectionShape(selection: readonly AxisSelection[]): number[] {
  return selection.filter((s) => s.kind === "slice").map((s) => (s as { count: number }).count);
}

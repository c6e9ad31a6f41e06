import { elementKey } from "../elements/equal.js";
import { ArrowEncodeError } from "../errors.js";
import type { ArrowField } from "../field/model.js";
import type { ColumnNode } from "./node.js";

/**
 * Builds a child column (build.ts's `buildColumn`, passed in so this module does not import
 * the one that imports it).
 */
export type BuildChild = (field: ArrowField, items: ArrayLike<unknown>) => ColumnNode;

const EMPTY = new Uint8Array(0);
const MAX_INT32 = 0x7fffffff;

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** The largest run end an int16, int32 or int64 run-ends child holds. */
const MAX_RUN_END: Record<16 | 32 | 64, number> = {
  16: 0x7fff,
  32: MAX_INT32,
  64: Number.MAX_SAFE_INTEGER,
};

/**
 * A run-end encoded column: equal consecutive elements (nulls included) merge into one run.
 * The array itself has no buffers; its children are the run ends (the index one past each
 * run's last element, in the field's run-end type) and one value per run.
 * @throws ArrowEncodeError when the run-end type cannot hold the column's length
 */
export function runEndEncodedColumn(
  field: ArrowField,
  items: ArrayLike<unknown>,
  buildColumn: BuildChild,
): ColumnNode {
  const n = items.length;
  const [endsField, valuesField] = field.children;
  const width = (endsField.type as { bitWidth: 16 | 32 | 64 }).bitWidth;
  if (n > MAX_RUN_END[width]) {
    throw new ArrowEncodeError(
      `The run-end encoded field ${JSON.stringify(field.name)} has int${width} run ends, which hold at most ${MAX_RUN_END[width]}; this chunk has ${n} elements (declare wider run ends or use smaller chunks)`,
    );
  }
  const ends: number[] = [];
  const values: unknown[] = [];
  let previous: string | undefined;
  for (let i = 0; i < n; i++) {
    const key = elementKey(items[i]);
    if (key === previous) ends[ends.length - 1] = i + 1;
    else {
      ends.push(i + 1);
      values.push(items[i]);
      previous = key;
    }
  }
  const endsArray =
    width === 16
      ? Int16Array.from(ends)
      : width === 32
        ? Int32Array.from(ends)
        : BigInt64Array.from(ends, BigInt);
  const endsNode: ColumnNode = {
    length: ends.length,
    nullCount: 0,
    buffers: [EMPTY, bytesOf(endsArray)],
    children: [],
  };
  return {
    length: n,
    nullCount: 0,
    buffers: [],
    children: [endsNode, buildColumn(valuesField, values)],
  };
}

/**
 * A list view or large list view column: validity, then an offset and a size per element
 * (int32, or int64 for the large variant). The writer lays the lists out one after another in
 * the child, as a list would (readers also take overlapping and out-of-order views); a null
 * list has size 0.
 * @throws ArrowEncodeError when a list view's child needs more than 2^31 - 1 items
 */
export function listViewColumn(
  field: ArrowField,
  items: ArrayLike<unknown>,
  bitmap: Uint8Array,
  nullCount: number,
  buildColumn: BuildChild,
): ColumnNode {
  const n = items.length;
  const large = field.type.name === "largelistview";
  let total = 0;
  for (let i = 0; i < n; i++) if (items[i] !== null) total += (items[i] as unknown[]).length;
  if (!large && total > MAX_INT32) {
    throw new ArrowEncodeError(
      `The listview column ${JSON.stringify(field.name)} needs ${total} items; 32-bit offsets hold at most ${MAX_INT32}: use largelistview`,
    );
  }
  const offsets = large ? new BigInt64Array(n) : new Int32Array(n);
  const sizes = large ? new BigInt64Array(n) : new Int32Array(n);
  const flat: unknown[] = new Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const list = items[i] as unknown[] | null;
    const size = list === null ? 0 : list.length;
    if (offsets instanceof BigInt64Array) {
      offsets[i] = BigInt(at);
      (sizes as BigInt64Array)[i] = BigInt(size);
    } else {
      offsets[i] = at;
      (sizes as Int32Array)[i] = size;
    }
    for (let k = 0; k < size; k++) flat[at + k] = (list as unknown[])[k];
    at += size;
  }
  return {
    length: n,
    nullCount,
    buffers: [bitmap, bytesOf(offsets), bytesOf(sizes)],
    children: [buildColumn(field.children[0], flat)],
  };
}

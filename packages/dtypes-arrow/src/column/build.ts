import { numberToHalf } from "@z/ndarray";
import { parseDecimal, writeDecimalBytes } from "../elements/decimal.js";
import { elementKey } from "../elements/equal.js";
import { zeroElement } from "../elements/zero.js";
import { ArrowEncodeError, ArrowValueError } from "../errors.js";
import {
  type ArrowField,
  type ArrowIntType,
  dictionaryValueField,
  fixedWidthOf,
} from "../field/model.js";
import { listViewColumn, runEndEncodedColumn } from "./build-views.js";
import type { ColumnNode } from "./node.js";

const EMPTY = new Uint8Array(0);
const MAX_INT32 = 0x7fffffff;
const encoder = new TextEncoder();

type IntArray =
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigUint64Array;

/** The TypedArray class holding integers of a width and signedness. */
export function intArrayClass(type: ArrowIntType): new (n: number) => IntArray {
  const signed = [Int8Array, Int16Array, Int32Array, BigInt64Array];
  const unsigned = [Uint8Array, Uint16Array, Uint32Array, BigUint64Array];
  const k = Math.log2(type.bitWidth) - 3;
  return (type.isSigned ? signed : unsigned)[k] as new (
    n: number,
  ) => IntArray;
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** The validity bitmap of some items (empty when none is null) and how many are null. */
function validityOf(items: ArrayLike<unknown>): { bitmap: Uint8Array; nullCount: number } {
  let nullCount = 0;
  for (let i = 0; i < items.length; i++)
    if (items[i] === null || items[i] === undefined) nullCount++;
  if (nullCount === 0) return { bitmap: EMPTY, nullCount };
  const bitmap = new Uint8Array(Math.ceil(items.length / 8));
  for (let i = 0; i < items.length; i++) {
    if (items[i] !== null && items[i] !== undefined) bitmap[i >> 3] |= 1 << (i & 7);
  }
  return { bitmap, nullCount };
}

/** The value a child array holds where its parent is null: null, or the zero of a non-nullable child. */
function placeholder(child: ArrowField): unknown {
  return child.nullable || child.type.name === "null" ? null : zeroElement(child);
}

function offsetsArray(
  large: boolean,
  n: number,
  what: string,
  total: number,
): Int32Array | BigInt64Array {
  if (!large && total > MAX_INT32) {
    throw new ArrowEncodeError(
      `${what} needs ${total} offsets units; 32-bit offsets hold at most ${MAX_INT32}: use the large variant`,
    );
  }
  return large ? new BigInt64Array(n + 1) : new Int32Array(n + 1);
}

function setOffset(offsets: Int32Array | BigInt64Array, i: number, value: number): void {
  if (offsets instanceof BigInt64Array) offsets[i] = BigInt(value);
  else offsets[i] = value;
}

function fixedValues(field: ArrowField, items: ArrayLike<unknown>): Uint8Array {
  const t = field.type;
  const n = items.length;
  const width = fixedWidthOf(t) as number;
  switch (t.name) {
    case "int": {
      const out = new (intArrayClass(t))(n);
      for (let i = 0; i < n; i++) if (items[i] !== null) out[i] = items[i] as never;
      return bytesOf(out);
    }
    case "floatingpoint": {
      if (t.precision === "HALF") {
        const out = new Uint16Array(n);
        for (let i = 0; i < n; i++)
          if (items[i] !== null) out[i] = numberToHalf(items[i] as number);
        return bytesOf(out);
      }
      const out = t.precision === "SINGLE" ? new Float32Array(n) : new Float64Array(n);
      for (let i = 0; i < n; i++) if (items[i] !== null) out[i] = items[i] as number;
      return bytesOf(out);
    }
    case "date":
    case "time":
    case "timestamp":
    case "duration": {
      const out = width === 4 ? new Int32Array(n) : new BigInt64Array(n);
      for (let i = 0; i < n; i++) if (items[i] !== null) out[i] = items[i] as never;
      return bytesOf(out);
    }
    case "interval": {
      const out = new Uint8Array(n * width);
      const view = new DataView(out.buffer);
      for (let i = 0; i < n; i++) {
        const v = items[i];
        if (v === null) continue;
        if (t.unit === "YEAR_MONTH") view.setInt32(i * 4, v as number, true);
        else if (t.unit === "DAY_TIME") {
          const { days, milliseconds } = v as { days: number; milliseconds: number };
          view.setInt32(i * 8, days, true);
          view.setInt32(i * 8 + 4, milliseconds, true);
        } else {
          const { months, days, nanoseconds } = v as {
            months: number;
            days: number;
            nanoseconds: bigint;
          };
          view.setInt32(i * 16, months, true);
          view.setInt32(i * 16 + 4, days, true);
          view.setBigInt64(i * 16 + 8, nanoseconds, true);
        }
      }
      return out;
    }
    case "decimal": {
      const out = new Uint8Array(n * width);
      for (let i = 0; i < n; i++) {
        if (items[i] === null) continue;
        const unscaled = parseDecimal(items[i] as string, t.precision, t.scale);
        if (typeof unscaled === "string") throw new ArrowValueError(`element ${i} ${unscaled}`);
        writeDecimalBytes(unscaled, out, i * width, width);
      }
      return out;
    }
    case "fixedsizebinary": {
      const out = new Uint8Array(n * width);
      for (let i = 0; i < n; i++) if (items[i] !== null) out.set(items[i] as Uint8Array, i * width);
      return out;
    }
    default:
      throw new ArrowEncodeError(`no fixed-width layout for ${t.name}`);
  }
}

function boolValues(items: ArrayLike<unknown>): Uint8Array {
  const out = new Uint8Array(Math.ceil(items.length / 8));
  for (let i = 0; i < items.length; i++) if (items[i] === true) out[i >> 3] |= 1 << (i & 7);
  return out;
}

/** The UTF-8 byte length of a string (lone surrogates count as U+FFFD, as TextEncoder writes them). */
function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: two code units, four bytes
      i++;
    } else n += 2;
  }
  return n;
}

/** Writes a string's UTF-8 bytes (ASCII by hand: short strings are too many for one call each). */
function writeText(text: string, size: number, out: Uint8Array, at: number): void {
  if (size === text.length) {
    for (let k = 0; k < size; k++) out[at + k] = text.charCodeAt(k);
  } else {
    encoder.encodeInto(text, out.subarray(at, at + size));
  }
}

function variableBinary(field: ArrowField, items: ArrayLike<unknown>): Uint8Array[] {
  const n = items.length;
  const text = field.type.name === "utf8" || field.type.name === "largeutf8";
  const large = field.type.name === "largeutf8" || field.type.name === "largebinary";
  const sizes = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const v = items[i];
    if (v === null) continue;
    sizes[i] = text ? utf8Length(v as string) : (v as Uint8Array).length;
    total += sizes[i];
  }
  const offsets = offsetsArray(large, n, `The ${field.type.name} column`, total);
  const data = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    setOffset(offsets, i, at);
    const v = items[i];
    if (v === null) continue;
    if (text) writeText(v as string, sizes[i], data, at);
    else data.set(v as Uint8Array, at);
    at += sizes[i];
  }
  setOffset(offsets, n, at);
  return [bytesOf(offsets), data];
}

/**
 * The views and the one data buffer of a utf8 view or binary view column: each element is 16
 * bytes, its length then either its bytes (up to 12, inline) or its first 4 bytes, buffer 0 and
 * its offset in the data buffer, which holds the longer elements one after another.
 */
function viewColumns(field: ArrowField, items: ArrayLike<unknown>): Uint8Array[] {
  const n = items.length;
  const text = field.type.name === "utf8view";
  const encoded: (Uint8Array | null)[] = new Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const v = items[i];
    if (v === null) {
      encoded[i] = null;
      continue;
    }
    const bytes = text ? encoder.encode(v as string) : (v as Uint8Array);
    encoded[i] = bytes;
    if (bytes.length > 12) total += bytes.length;
  }
  if (total > 0x7fffffff) {
    throw new ArrowEncodeError(
      `The ${field.type.name} column holds ${total} bytes of long elements; one data buffer holds at most 2^31 - 1`,
    );
  }
  const views = new Uint8Array(n * 16);
  const dv = new DataView(views.buffer);
  const data = new Uint8Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const bytes = encoded[i];
    if (bytes === null) continue;
    dv.setInt32(i * 16, bytes.length, true);
    if (bytes.length <= 12) {
      views.set(bytes, i * 16 + 4);
      continue;
    }
    views.set(bytes.subarray(0, 4), i * 16 + 4);
    dv.setInt32(i * 16 + 8, 0, true);
    dv.setInt32(i * 16 + 12, at, true);
    data.set(bytes, at);
    at += bytes.length;
  }
  return [views, data];
}

function listColumn(
  field: ArrowField,
  items: ArrayLike<unknown>,
  bitmap: Uint8Array,
  nullCount: number,
): ColumnNode {
  const n = items.length;
  const child = field.children[0];
  let total = 0;
  for (let i = 0; i < n; i++) if (items[i] !== null) total += (items[i] as unknown[]).length;
  const offsets = offsetsArray(
    field.type.name === "largelist",
    n,
    `The ${field.type.name} column`,
    total,
  );
  const flat: unknown[] = new Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    setOffset(offsets, i, at);
    const list = items[i] as unknown[] | null;
    if (list === null) continue;
    for (let k = 0; k < list.length; k++) flat[at + k] = list[k];
    at += list.length;
  }
  setOffset(offsets, n, at);
  return {
    length: n,
    nullCount,
    buffers: [bitmap, bytesOf(offsets)],
    children: [buildColumn(child, flat)],
  };
}

function mapColumn(
  field: ArrowField,
  items: ArrayLike<unknown>,
  bitmap: Uint8Array,
  nullCount: number,
): ColumnNode {
  const n = items.length;
  const entries = field.children[0];
  let total = 0;
  for (let i = 0; i < n; i++) if (items[i] !== null) total += (items[i] as unknown[]).length;
  const offsets = offsetsArray(false, n, "The map column", total);
  const keys: unknown[] = new Array(total);
  const values: unknown[] = new Array(total);
  let at = 0;
  for (let i = 0; i < n; i++) {
    offsets[i] = at;
    const pairs = items[i] as [unknown, unknown][] | null;
    if (pairs === null) continue;
    for (const [k, v] of pairs) {
      keys[at] = k;
      values[at] = v;
      at++;
    }
  }
  offsets[n] = at;
  const entriesNode: ColumnNode = {
    length: total,
    nullCount: 0,
    buffers: [EMPTY],
    children: [buildColumn(entries.children[0], keys), buildColumn(entries.children[1], values)],
  };
  return { length: n, nullCount, buffers: [bitmap, bytesOf(offsets)], children: [entriesNode] };
}

function unionColumn(field: ArrowField, items: ArrayLike<unknown>): ColumnNode {
  const t = field.type as { mode: "SPARSE" | "DENSE"; typeIds: number[] };
  const n = items.length;
  const typeIds = new Int8Array(n);
  const nullMember = field.children.findIndex((c) => c.nullable || c.type.name === "null");
  const members: number[] = new Array(n);
  const memberValues: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = items[i] as { typeId: number; value: unknown } | null;
    if (v === null) {
      if (nullMember < 0) {
        throw new ArrowValueError(
          `element ${i} is null, but no member of the union ${JSON.stringify(field.name)} is nullable`,
        );
      }
      members[i] = nullMember;
      memberValues[i] = null;
    } else {
      members[i] = t.typeIds.indexOf(v.typeId);
      memberValues[i] = v.value;
    }
    typeIds[i] = t.typeIds[members[i]];
  }
  if (t.mode === "SPARSE") {
    const children = field.children.map((child, c) => {
      const column: unknown[] = new Array(n);
      for (let i = 0; i < n; i++)
        column[i] = members[i] === c ? memberValues[i] : placeholder(child);
      return buildColumn(child, column);
    });
    return { length: n, nullCount: 0, buffers: [bytesOf(typeIds)], children };
  }
  const offsets = new Int32Array(n);
  const columns: unknown[][] = field.children.map(() => []);
  for (let i = 0; i < n; i++) {
    const column = columns[members[i]];
    offsets[i] = column.length;
    column.push(memberValues[i]);
  }
  const children = field.children.map((child, c) => buildColumn(child, columns[c]));
  return { length: n, nullCount: 0, buffers: [bytesOf(typeIds), bytesOf(offsets)], children };
}

function dictionaryColumn(
  field: ArrowField,
  items: ArrayLike<unknown>,
  bitmap: Uint8Array,
  nullCount: number,
): ColumnNode {
  const encoding = field.dictionary!;
  const n = items.length;
  const positions = new Map<string, number>();
  const values: unknown[] = [];
  const indices = new (intArrayClass(encoding.indexType))(n);
  const big = indices instanceof BigInt64Array || indices instanceof BigUint64Array;
  const limit = encoding.indexType.isSigned
    ? 2 ** (encoding.indexType.bitWidth - 1)
    : 2 ** encoding.indexType.bitWidth;
  for (let i = 0; i < n; i++) {
    const v = items[i];
    if (v === null) continue;
    const key = elementKey(v);
    let position = positions.get(key);
    if (position === undefined) {
      position = values.length;
      if (position >= limit) {
        throw new ArrowEncodeError(
          `The dictionary of ${JSON.stringify(field.name)} needs more than ${limit} values; its ${encoding.indexType.bitWidth}-bit indices cannot address them`,
        );
      }
      positions.set(key, position);
      values.push(v);
    }
    indices[i] = (big ? BigInt(position) : position) as never;
  }
  const valueField = { ...dictionaryValueField(field), nullable: false };
  return {
    length: n,
    nullCount,
    buffers: [bitmap, bytesOf(indices)],
    children: [],
    dictionary: buildColumn(valueField, values),
  };
}

/**
 * Lays out elements (in the form `coerceElement` returns) as an Arrow array of the field:
 * validity bitmaps, offsets, values, type ids and child arrays, as the IPC format lists them.
 * @throws ArrowEncodeError when a column does not fit its offsets (over 2^31 - 1 bytes or items)
 */
export function buildColumn(field: ArrowField, items: ArrayLike<unknown>): ColumnNode {
  const n = items.length;
  const t = field.type;
  if (t.name === "null") return { length: n, nullCount: n, buffers: [], children: [] };
  if (t.name === "union") return unionColumn(field, items);
  if (t.name === "runendencoded") return runEndEncodedColumn(field, items, buildColumn);
  const { bitmap, nullCount } = validityOf(items);
  if (field.dictionary) return dictionaryColumn(field, items, bitmap, nullCount);
  switch (t.name) {
    case "bool":
      return { length: n, nullCount, buffers: [bitmap, boolValues(items)], children: [] };
    case "utf8":
    case "largeutf8":
    case "binary":
    case "largebinary":
      return {
        length: n,
        nullCount,
        buffers: [bitmap, ...variableBinary(field, items)],
        children: [],
      };
    case "utf8view":
    case "binaryview":
      return {
        length: n,
        nullCount,
        buffers: [bitmap, ...viewColumns(field, items)],
        children: [],
      };
    case "listview":
    case "largelistview":
      return listViewColumn(field, items, bitmap, nullCount, buildColumn);
    case "list":
    case "largelist":
      return listColumn(field, items, bitmap, nullCount);
    case "map":
      return mapColumn(field, items, bitmap, nullCount);
    case "fixedsizelist": {
      const child = field.children[0];
      const flat: unknown[] = new Array(n * t.listSize);
      for (let i = 0; i < n; i++) {
        const list = items[i] as unknown[] | null;
        for (let k = 0; k < t.listSize; k++)
          flat[i * t.listSize + k] = list === null ? placeholder(child) : list[k];
      }
      return { length: n, nullCount, buffers: [bitmap], children: [buildColumn(child, flat)] };
    }
    case "struct": {
      const children = field.children.map((child) => {
        const column: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const record = items[i] as Record<string, unknown> | null;
          column[i] = record === null ? placeholder(child) : record[child.name];
        }
        return buildColumn(child, column);
      });
      return { length: n, nullCount, buffers: [bitmap], children };
    }
    default:
      return { length: n, nullCount, buffers: [bitmap, fixedValues(field, items)], children: [] };
  }
}

import { DecodeError } from "@z/codecs";
import { halfToNumber } from "@z/ndarray";
import { formatDecimal, readDecimalBytes } from "../elements/decimal.js";
import { type ArrowField, describeArrowType, fixedWidthOf } from "../field/model.js";
import { intArrayClass } from "./build.js";
import type { ColumnNode } from "./node.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** What reading an array needs besides the array: decoded dictionaries and where we are. */
export interface ReadContext {
  /** Decoded dictionary values by dictionary id. */
  dictionaries: Map<number, unknown[]>;
  /** Names the column in error messages. */
  where: string;
  /**
   * How many more bytes the view arrays may copy out. Views may point many elements at the
   * same bytes, so without a bound a small stream could describe a huge result.
   */
  viewBytes?: { left: number };
}

type Ctor<T> = {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): T;
  BYTES_PER_ELEMENT: number;
};

function corrupt(ctx: ReadContext, field: ArrowField, problem: string): never {
  throw new DecodeError(
    `${ctx.where}: the ${describeArrowType(field)} array ${JSON.stringify(field.name)} ${problem}`,
  );
}

/** A typed view of `count` items of a buffer, copied when the buffer is not aligned for it. */
function typedView<T>(bytes: Uint8Array, ctor: Ctor<T>, count: number): T {
  const size = count * ctor.BYTES_PER_ELEMENT;
  if (bytes.byteOffset % ctor.BYTES_PER_ELEMENT === 0)
    return new ctor(bytes.buffer, bytes.byteOffset, count);
  return new ctor(bytes.slice(0, size).buffer, 0, count);
}

function need(
  ctx: ReadContext,
  field: ArrowField,
  buffer: Uint8Array,
  bytes: number,
  what: string,
): void {
  if (buffer.length < bytes)
    corrupt(ctx, field, `has a ${what} buffer of ${buffer.length} bytes; it needs ${bytes}`);
}

/**
 * A typed view of the first `count` items of `buffer` ({@link typedView}), after checking the
 * buffer holds that many (a short buffer is a corrupt stream, named by `what`).
 */
function neededView<T>(
  ctx: ReadContext,
  field: ArrowField,
  buffer: Uint8Array,
  ctor: Ctor<T>,
  count: number,
  what: string,
): T {
  need(ctx, field, buffer, count * ctor.BYTES_PER_ELEMENT, what);
  return typedView(buffer, ctor, count);
}

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) return false;
  return true;
}

/** Which elements are valid: a function of the index, from the validity bitmap. */
function validity(ctx: ReadContext, field: ArrowField, node: ColumnNode): (i: number) => boolean {
  if (node.nullCount < 0 || node.nullCount > node.length)
    corrupt(ctx, field, `claims ${node.nullCount} nulls in ${node.length} elements`);
  if (node.nullCount === 0) return () => true;
  const bitmap = node.buffers[0];
  need(ctx, field, bitmap, Math.ceil(node.length / 8), "validity");
  return (i) => (bitmap[i >> 3] & (1 << (i & 7))) !== 0;
}

/** Reads `length + 1` offsets, checking they start at or above 0, never decrease and end within `limit`. */
function readOffsets(
  ctx: ReadContext,
  field: ArrowField,
  buffer: Uint8Array,
  length: number,
  large: boolean,
  limit: number,
  what: string,
): Float64Array {
  const out = new Float64Array(length + 1);
  if (length === 0 && buffer.length === 0) return out;
  const raw = large
    ? neededView(ctx, field, buffer, BigInt64Array, length + 1, "offsets")
    : neededView(ctx, field, buffer, Int32Array, length + 1, "offsets");
  let previous = Number(raw[0]);
  if (previous < 0) corrupt(ctx, field, `has a negative first offset (${previous})`);
  for (let i = 0; i <= length; i++) {
    const v = Number(raw[i]);
    if (v < previous) corrupt(ctx, field, `has decreasing offsets (${previous} then ${v} at ${i})`);
    out[i] = v;
    previous = v;
  }
  if (previous > limit)
    corrupt(ctx, field, `has offsets up to ${previous}, past the ${limit} ${what}`);
  return out;
}

function readFixed(
  ctx: ReadContext,
  field: ArrowField,
  node: ColumnNode,
  valid: (i: number) => boolean,
): unknown[] {
  const t = field.type;
  const n = node.length;
  const width = fixedWidthOf(t) as number;
  const values = node.buffers[1];
  need(ctx, field, values, n * width, "values");
  const out: unknown[] = new Array(n);
  const fill = (get: (i: number) => unknown) => {
    for (let i = 0; i < n; i++) out[i] = valid(i) ? get(i) : null;
    return out;
  };
  switch (t.name) {
    case "int": {
      const a = typedView(
        values,
        intArrayClass(t) as unknown as Ctor<ArrayLike<number | bigint>>,
        n,
      );
      return fill((i) => a[i]);
    }
    case "floatingpoint": {
      if (t.precision === "HALF") {
        const a = typedView(values, Uint16Array, n);
        return fill((i) => halfToNumber(a[i]));
      }
      const a =
        t.precision === "SINGLE"
          ? typedView(values, Float32Array, n)
          : typedView(values, Float64Array, n);
      return fill((i) => a[i]);
    }
    case "date":
    case "time":
    case "timestamp":
    case "duration": {
      const a =
        width === 4 ? typedView(values, Int32Array, n) : typedView(values, BigInt64Array, n);
      return fill((i) => a[i]);
    }
    case "interval": {
      const view = new DataView(values.buffer, values.byteOffset, values.byteLength);
      if (t.unit === "YEAR_MONTH") return fill((i) => view.getInt32(i * 4, true));
      if (t.unit === "DAY_TIME")
        return fill((i) => ({
          days: view.getInt32(i * 8, true),
          milliseconds: view.getInt32(i * 8 + 4, true),
        }));
      return fill((i) => ({
        months: view.getInt32(i * 16, true),
        days: view.getInt32(i * 16 + 4, true),
        nanoseconds: view.getBigInt64(i * 16 + 8, true),
      }));
    }
    case "decimal":
      return fill((i) => formatDecimal(readDecimalBytes(values, i * width, width), t.scale));
    case "fixedsizebinary":
      return fill((i) => values.slice(i * width, (i + 1) * width));
    default:
      return corrupt(ctx, field, "has no fixed-width layout");
  }
}

function checkChildLength(
  ctx: ReadContext,
  field: ArrowField,
  child: ColumnNode,
  needed: number,
): void {
  if (child.length < needed)
    corrupt(ctx, field, `needs ${needed} child elements but its child array has ${child.length}`);
}

function readUnion(ctx: ReadContext, field: ArrowField, node: ColumnNode): unknown[] {
  const t = field.type as { mode: "SPARSE" | "DENSE"; typeIds: number[] };
  const n = node.length;
  // Metadata before V5 gave unions a validity buffer first; the reader passes only the rest.
  const [typeIdBuffer, offsetBuffer] = node.buffers;
  const ids = neededView(ctx, field, typeIdBuffer, Int8Array, n, "type ids");
  const memberOf = new Int16Array(128).fill(-1);
  t.typeIds.forEach((id, c) => {
    memberOf[id] = c;
  });
  const children = field.children.map((child, c) => readColumn(child, node.children[c], ctx));
  const out: unknown[] = new Array(n);
  let offsets: Int32Array | undefined;
  if (t.mode === "DENSE") {
    offsets = neededView(ctx, field, offsetBuffer, Int32Array, n, "offsets");
  } else {
    for (const child of node.children) checkChildLength(ctx, field, child, n);
  }
  for (let i = 0; i < n; i++) {
    const id = ids[i];
    const c = id >= 0 ? memberOf[id] : -1;
    if (c < 0)
      corrupt(ctx, field, `has type id ${id} at ${i}, which is not one of ${t.typeIds.join(", ")}`);
    const at = offsets ? offsets[i] : i;
    if (at < 0 || at >= node.children[c].length)
      corrupt(ctx, field, `has offset ${at} at ${i}, outside its member array`);
    const value = children[c][at];
    out[i] = value === null ? null : { typeId: id, value };
  }
  return out;
}

function readDictionary(
  ctx: ReadContext,
  field: ArrowField,
  node: ColumnNode,
  valid: (i: number) => boolean,
): unknown[] {
  const encoding = field.dictionary!;
  const values = ctx.dictionaries.get(encoding.id);
  if (!values) corrupt(ctx, field, `uses dictionary ${encoding.id}, which the stream never sent`);
  const n = node.length;
  const ctor = intArrayClass(encoding.indexType) as unknown as Ctor<ArrayLike<number | bigint>>;
  const indices = neededView(ctx, field, node.buffers[1], ctor, n, "indices");
  const out: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (!valid(i)) {
      out[i] = null;
      continue;
    }
    const index = Number(indices[i]);
    if (!(index >= 0 && index < values.length))
      corrupt(
        ctx,
        field,
        `has index ${index} at ${i}; the dictionary holds ${values.length} values`,
      );
    out[i] = values[index];
  }
  return out;
}

/**
 * The elements of an Arrow array (a node laid out as IPC lists it) in the form
 * `coerceElement` returns. Every buffer is checked to be long enough for the lengths and
 * offsets that index it before anything is read, so corrupt input is a DecodeError, never a
 * read past a buffer or garbage.
 * @throws DecodeError
 */
export function readColumn(field: ArrowField, node: ColumnNode, ctx: ReadContext): unknown[] {
  const n = node.length;
  const t = field.type;
  if (t.name === "null") return new Array(n).fill(null);
  if (t.name === "union") return readUnion(ctx, field, node);
  if (t.name === "runendencoded") return readRunEndEncoded(ctx, field, node);
  const valid = validity(ctx, field, node);
  if (field.dictionary) return readDictionary(ctx, field, node, valid);
  const out: unknown[] = new Array(n);
  switch (t.name) {
    case "bool": {
      const bits = node.buffers[1];
      need(ctx, field, bits, Math.ceil(n / 8), "values");
      for (let i = 0; i < n; i++) out[i] = valid(i) ? (bits[i >> 3] & (1 << (i & 7))) !== 0 : null;
      return out;
    }
    case "utf8":
    case "largeutf8":
    case "binary":
    case "largebinary": {
      const large = t.name === "largeutf8" || t.name === "largebinary";
      const data = node.buffers[2];
      const offsets = readOffsets(ctx, field, node.buffers[1], n, large, data.length, "data bytes");
      const text = t.name === "utf8" || t.name === "largeutf8";
      // All-ASCII text (the common case) decodes in one call; byte offsets are then char offsets.
      const start = offsets[0];
      const region = data.subarray(start, offsets[n]);
      const whole = text && isAscii(region) ? utf8.decode(region) : undefined;
      for (let i = 0; i < n; i++) {
        if (!valid(i)) {
          out[i] = null;
          continue;
        }
        if (whole !== undefined) {
          out[i] = whole.substring(offsets[i] - start, offsets[i + 1] - start);
          continue;
        }
        const bytes = data.subarray(offsets[i], offsets[i + 1]);
        if (!text) out[i] = bytes.slice();
        else {
          try {
            out[i] = utf8.decode(bytes);
          } catch {
            corrupt(ctx, field, `holds invalid UTF-8 at element ${i}`);
          }
        }
      }
      return out;
    }
    case "utf8view":
    case "binaryview":
      return readViews(ctx, field, node, valid);
    case "listview":
    case "largelistview":
      return readListViews(ctx, field, node, valid);
    case "list":
    case "largelist":
    case "map": {
      const child = node.children[0];
      const offsets = readOffsets(
        ctx,
        field,
        node.buffers[1],
        n,
        t.name === "largelist",
        child.length,
        "child elements",
      );
      const items =
        t.name === "map"
          ? readMapEntries(field, child, ctx)
          : readColumn(field.children[0], child, ctx);
      for (let i = 0; i < n; i++)
        out[i] = valid(i) ? items.slice(offsets[i], offsets[i + 1]) : null;
      return out;
    }
    case "fixedsizelist": {
      const size = t.listSize;
      checkChildLength(ctx, field, node.children[0], n * size);
      const items = readColumn(field.children[0], node.children[0], ctx);
      for (let i = 0; i < n; i++) out[i] = valid(i) ? items.slice(i * size, (i + 1) * size) : null;
      return out;
    }
    case "struct": {
      for (const child of node.children) checkChildLength(ctx, field, child, n);
      const columns = field.children.map((child, c) => readColumn(child, node.children[c], ctx));
      for (let i = 0; i < n; i++) {
        if (!valid(i)) {
          out[i] = null;
          continue;
        }
        const record: Record<string, unknown> = {};
        field.children.forEach((child, c) => {
          record[child.name] = columns[c][i];
        });
        out[i] = record;
      }
      return out;
    }
    default:
      return readFixed(ctx, field, node, valid);
  }
}

/**
 * Reads a utf8 view or binary view array: 16 bytes per element, the length (int32) then either
 * the bytes themselves (up to 12, inline) or a 4-byte prefix, a data buffer index and an offset.
 * Every view is checked against the buffer it names, and its prefix against the bytes there.
 */
function readViews(
  ctx: ReadContext,
  field: ArrowField,
  node: ColumnNode,
  valid: (i: number) => boolean,
): unknown[] {
  const n = node.length;
  const views = node.buffers[1];
  const data = node.buffers.slice(2);
  need(ctx, field, views, n * 16, "views");
  const dv = new DataView(views.buffer, views.byteOffset, views.byteLength);
  const text = field.type.name === "utf8view";
  const budget = ctx.viewBytes ?? { left: Number.POSITIVE_INFINITY };
  const out: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (!valid(i)) {
      out[i] = null;
      continue;
    }
    const at = i * 16;
    const length = dv.getInt32(at, true);
    if (length < 0) corrupt(ctx, field, `has a view of length ${length} at element ${i}`);
    let bytes: Uint8Array;
    if (length <= 12) {
      bytes = views.subarray(at + 4, at + 4 + length);
    } else {
      const index = dv.getInt32(at + 8, true);
      const offset = dv.getInt32(at + 12, true);
      const buffer = data[index];
      if (index < 0 || buffer === undefined)
        corrupt(
          ctx,
          field,
          `has a view into data buffer ${index} at element ${i}; it has ${data.length}`,
        );
      if (offset < 0 || offset + length > buffer.length)
        corrupt(
          ctx,
          field,
          `has a view of ${length} bytes at offset ${offset} at element ${i}, past its ${buffer.length}-byte data buffer`,
        );
      bytes = buffer.subarray(offset, offset + length);
      for (let k = 0; k < 4; k++) {
        if (bytes[k] !== views[at + 4 + k])
          corrupt(ctx, field, `has a view at element ${i} whose prefix differs from its bytes`);
      }
    }
    budget.left -= length;
    if (budget.left < 0)
      corrupt(ctx, field, "has views that add up to more bytes than the stream's size allows");
    if (!text) out[i] = bytes.slice();
    else {
      try {
        out[i] = utf8.decode(bytes);
      } catch {
        corrupt(ctx, field, `holds invalid UTF-8 at element ${i}`);
      }
    }
  }
  return out;
}

/**
 * Reads a list view or large list view array: an offset and a size per element, each list the
 * child items from its offset on (lists may overlap and come in any order). Every range is
 * checked against the child array, and the items all lists copy out are bounded together.
 */
function readListViews(
  ctx: ReadContext,
  field: ArrowField,
  node: ColumnNode,
  valid: (i: number) => boolean,
): unknown[] {
  const n = node.length;
  const large = field.type.name === "largelistview";
  const ctor = (large ? BigInt64Array : Int32Array) as unknown as Ctor<ArrayLike<number | bigint>>;
  const offsets = neededView(ctx, field, node.buffers[1], ctor, n, "offsets");
  const sizes = neededView(ctx, field, node.buffers[2], ctor, n, "sizes");
  const child = node.children[0];
  const items = readColumn(field.children[0], child, ctx);
  const budget = ctx.viewBytes ?? { left: Number.POSITIVE_INFINITY };
  const out: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (!valid(i)) {
      out[i] = null;
      continue;
    }
    const offset = Number(offsets[i]);
    const size = Number(sizes[i]);
    if (offset < 0 || size < 0 || offset + size > child.length)
      corrupt(
        ctx,
        field,
        `has a list of ${size} items at offset ${offset} at element ${i}, outside its ${child.length}-item child`,
      );
    budget.left -= size;
    if (budget.left < 0)
      corrupt(ctx, field, "has lists that add up to more items than the stream's size allows");
    out[i] = items.slice(offset, offset + size);
  }
  return out;
}

/**
 * Reads a run-end encoded array: child 0 holds where each run ends (strictly increasing, the
 * last at or past the array's length), child 1 the value of each run.
 */
function readRunEndEncoded(ctx: ReadContext, field: ArrowField, node: ColumnNode): unknown[] {
  const n = node.length;
  const [endsNode, valuesNode] = node.children;
  if (endsNode.length !== valuesNode.length)
    corrupt(ctx, field, `has ${endsNode.length} run ends but ${valuesNode.length} values`);
  if (endsNode.nullCount !== 0) corrupt(ctx, field, "has null run ends");
  const runs = endsNode.length;
  if (n > 0 && runs === 0) corrupt(ctx, field, `has ${n} elements but no runs`);
  const endsType = field.children[0].type as { bitWidth: 16 | 32 | 64 };
  const ctor = (endsType.bitWidth === 16
    ? Int16Array
    : endsType.bitWidth === 32
      ? Int32Array
      : BigInt64Array) as unknown as Ctor<ArrayLike<number | bigint>>;
  const ends = neededView(ctx, field, endsNode.buffers[1], ctor, runs, "run ends");
  const values = readColumn(field.children[1], valuesNode, ctx);
  const out: unknown[] = new Array(n);
  let previous = 0;
  let i = 0;
  for (let r = 0; r < runs && i < n; r++) {
    const end = Number(ends[r]);
    if (!(end > previous))
      corrupt(
        ctx,
        field,
        `has run ends that do not increase (${previous} then ${end} at run ${r})`,
      );
    const stop = Math.min(end, n);
    for (; i < stop; i++) out[i] = values[r];
    previous = end;
  }
  if (i < n) corrupt(ctx, field, `has runs that end at ${previous}, before its ${n} elements`);
  return out;
}

/** The entries of a map's child struct as `[key, value]` pairs. */
function readMapEntries(
  field: ArrowField,
  entries: ColumnNode,
  ctx: ReadContext,
): [unknown, unknown][] {
  const entriesField = field.children[0];
  const [keyNode, valueNode] = entries.children;
  checkChildLength(ctx, entriesField, keyNode, entries.length);
  checkChildLength(ctx, entriesField, valueNode, entries.length);
  const keys = readColumn(entriesField.children[0], keyNode, ctx);
  const values = readColumn(entriesField.children[1], valueNode, ctx);
  const out: [unknown, unknown][] = new Array(entries.length);
  for (let i = 0; i < entries.length; i++) out[i] = [keys[i], values[i]];
  return out;
}

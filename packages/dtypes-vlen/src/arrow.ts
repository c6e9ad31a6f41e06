import type { Chunk } from "@z/ndarray";
import { toCOrder } from "@z/ndarray";
import type { Data, Vector } from "apache-arrow";
import { describeValue } from "./describe.js";
import { asBytes } from "./dtype/bytes.js";
import { EncodeError } from "./errors.js";
import { decodeItemsInRegion, utf8Length, writeUtf8 } from "./layout/utf8.js";

type ArrowModule = typeof import("apache-arrow");
let arrowModule: Promise<ArrowModule> | undefined;

/**
 * apache-arrow, loaded on first use: it takes a few hundred milliseconds to load, which
 * programs that never ask for Arrow vectors (the CLI, most readers) should not pay.
 */
export function loadArrow(): Promise<ArrowModule> {
  arrowModule ??= import("apache-arrow");
  return arrowModule;
}

/** Arrow's type ids (`Type` in apache-arrow) of the variable-size binary layouts. */
const ARROW_BINARY = 4;
const ARROW_UTF8 = 5;
const ARROW_LARGE_BINARY = 19;
const ARROW_LARGE_UTF8 = 20;

/** Which Arrow type family a vector of variable-length elements has. */
export type ArrowVlenKind = "utf8" | "binary";

/** An Arrow vector of strings or bytes, in any of the four offset layouts. */
export type VlenVector = Vector;

/**
 * Wraps offsets and data in an Arrow vector without copying: Utf8 or Binary for 32-bit
 * offsets, LargeUtf8 or LargeBinary for 64-bit ones.
 */
export async function arrowVectorFromBuffers(
  kind: ArrowVlenKind,
  offsets: Int32Array | BigInt64Array,
  data: Uint8Array,
  nullBitmap?: Uint8Array,
  nullCount = 0,
): Promise<VlenVector> {
  const arrow = await loadArrow();
  const large = offsets instanceof BigInt64Array;
  const type =
    kind === "utf8"
      ? large
        ? new arrow.LargeUtf8()
        : new arrow.Utf8()
      : large
        ? new arrow.LargeBinary()
        : new arrow.Binary();
  const props = {
    type,
    length: offsets.length - 1,
    valueOffsets: offsets,
    data,
    nullBitmap,
    nullCount,
  } as never;
  return arrow.makeVector(arrow.makeData(props) as Data);
}

/** Options of {@link toArrowVector}. */
export interface ToArrowOptions {
  /** Force 64-bit offsets (LargeUtf8 / LargeBinary). They are used anyway past 2 GiB of data. */
  large?: boolean;
  /** The Arrow type family; by default from the first element that is not null. */
  kind?: ArrowVlenKind;
}

function elementsOf(source: Chunk | ArrayLike<unknown>): ArrayLike<unknown> {
  if ("shape" in source && "stride" in source && "data" in source) {
    return toCOrder(source, (n) => new Array(n)).data as ArrayLike<unknown>;
  }
  return source as ArrayLike<unknown>;
}

/**
 * An Arrow vector holding the strings (Utf8) or byte strings (Binary) of a chunk, a result of
 * `arr.get()`, or a plain array, in C order. `null` and `undefined` become Arrow nulls. This
 * encodes (one copy); a chunk stored with the `z.vlen-offsets` codec reads into Arrow without
 * one through {@link readArrowChunk}.
 * @throws EncodeError for an element that is neither a string nor bytes (as the kind wants)
 */
export async function toArrowVector(
  source: Chunk | ArrayLike<unknown>,
  options: ToArrowOptions = {},
): Promise<VlenVector> {
  const items = elementsOf(source);
  const count = items.length;
  let kind = options.kind;
  if (!kind) {
    for (let i = 0; i < count && !kind; i++) {
      const v = items[i];
      if (typeof v === "string") kind = "utf8";
      else if (v !== null && v !== undefined) kind = "binary";
    }
  }
  kind ??= "utf8";
  const sizes = new Float64Array(count);
  const values = new Array<string | Uint8Array | null>(count);
  let nulls = 0;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const v = items[i];
    if (v === null || v === undefined) {
      values[i] = null;
      nulls++;
      continue;
    }
    if (kind === "utf8") {
      if (typeof v !== "string")
        throw new EncodeError(`toArrowVector: element ${i} is ${describeValue(v)}, not a string`);
      values[i] = v;
      sizes[i] = utf8Length(v);
    } else {
      const bytes = asBytes(v);
      if (!bytes)
        throw new EncodeError(`toArrowVector: element ${i} is ${describeValue(v)}, not bytes`);
      values[i] = bytes;
      sizes[i] = bytes.length;
    }
    total += sizes[i];
  }
  const large = options.large || total > 0x7fffffff;
  const offsets = large ? new BigInt64Array(count + 1) : new Int32Array(count + 1);
  const data = new Uint8Array(total);
  const bitmap = nulls > 0 ? new Uint8Array(Math.ceil(count / 8)) : undefined;
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (large) (offsets as BigInt64Array)[i] = BigInt(at);
    else (offsets as Int32Array)[i] = at;
    const v = values[i];
    if (v === null) continue;
    if (bitmap) bitmap[i >> 3] |= 1 << (i & 7);
    if (typeof v === "string") writeUtf8(v, sizes[i], data, at);
    else data.set(v, at);
    at += sizes[i];
  }
  if (large) (offsets as BigInt64Array)[count] = BigInt(at);
  else (offsets as Int32Array)[count] = at;
  return arrowVectorFromBuffers(kind, offsets, data, bitmap, nulls);
}

function isValid(bitmap: Uint8Array | undefined, index: number): boolean {
  return !bitmap || bitmap.length === 0 || (bitmap[index >> 3] & (1 << (index & 7))) !== 0;
}

interface ArrowDataLike {
  type: { typeId: number };
  offset: number;
  length: number;
  nullCount: number;
  valueOffsets?: Int32Array | BigInt64Array;
  values?: Uint8Array;
  nullBitmap?: Uint8Array;
}

function fromVlenData(data: ArrowDataLike, out: unknown[]): boolean {
  const id = data.type.typeId;
  const text = id === ARROW_UTF8 || id === ARROW_LARGE_UTF8;
  if (!text && id !== ARROW_BINARY && id !== ARROW_LARGE_BINARY) return false;
  const { offset, length, values = new Uint8Array(0) } = data;
  // apache-arrow slices the offsets buffer itself; `offset` only positions the null bitmap.
  const raw = data.valueOffsets ?? new Int32Array(1);
  let offsets: Uint32Array | Float64Array;
  if (raw instanceof BigInt64Array) {
    offsets = new Float64Array(length + 1);
    for (let i = 0; i <= length; i++) offsets[i] = Number(raw[i]);
  } else offsets = new Uint32Array(raw.buffer, raw.byteOffset, length + 1);
  const bitmap = data.nullCount > 0 ? data.nullBitmap : undefined;
  if (text) {
    const bounds = { starts: offsets, ends: offsets.subarray(1), count: length };
    const strings = decodeItemsInRegion(values, bounds, "fromArrowVector");
    for (let i = 0; i < length; i++) out.push(isValid(bitmap, offset + i) ? strings[i] : null);
  } else {
    for (let i = 0; i < length; i++)
      out.push(isValid(bitmap, offset + i) ? values.subarray(offsets[i], offsets[i + 1]) : null);
  }
  return true;
}

/**
 * The elements of an Arrow vector as a plain array to write with `arr.set`: strings for
 * Utf8 / LargeUtf8 (decoded in bulk, not one `TextDecoder` call per element), Uint8Arrays
 * (views of the vector's memory) for Binary / LargeBinary, `null` for Arrow nulls (written as
 * `""` or empty bytes, as numcodecs writes `None`). Other vector types (dictionaries,
 * views) are read element by element.
 *
 * ```ts
 * await arr.set([slice(0, 3)], fromArrowVector(vectorFromArray(["a", "b", "c"])));
 * await grid.set(null, { data: fromArrowVector(column), shape: [rows, cols] });
 * ```
 */
export function fromArrowVector(vector: Vector): unknown[] {
  const out: unknown[] = [];
  for (const data of vector.data as unknown as ArrowDataLike[]) {
    if (fromVlenData(data, out)) continue;
    const part = new (vector.constructor as new (data: unknown[]) => Vector)([data]);
    for (const v of part) out.push(v ?? null);
  }
  return out;
}

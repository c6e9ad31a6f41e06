import { bytesOf, needsSwap, swapBytesInPlace } from "@z/ndarray";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import type { DataType, Endian, ZarrFormat } from "./types.js";
import { ValueTypeError } from "./value-errors.js";

/** The code points of a string (a lone surrogate counts as one, as NumPy stores it). */
function codePoints(text: string): number[] {
  const out: number[] = [];
  for (const char of text) out.push(char.codePointAt(0) as number);
  return out;
}

/** The string of `count` code points starting at `start`, up to the first trailing NUL run. */
function stringAt(data: Uint32Array, start: number, count: number): string {
  let end = start + count;
  while (end > start && data[end - 1] === 0) end--;
  let out = "";
  for (let i = start; i < end; i++) {
    const cp = data[i];
    out += cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
  }
  return out;
}

/**
 * Fixed-length Unicode strings: NumPy's `U` (v2 `<U5` / `>U5`, UTF-32 little- or big-endian)
 * and v3 `fixed_length_utf32` (`{"length_bytes": 20}`). Held in a Uint32Array of `length` code
 * points per element (`lanes` = `length`), in the machine's byte order: UTF-32 is already
 * fixed-width, so a chunk decodes with at most a byte swap and copies stay TypedArray copies.
 * Elements are JavaScript strings without their trailing NULs, as NumPy returns them.
 *
 * ```ts
 * const t = fixedLengthUnicode(4);
 * const data = t.create(2);
 * t.setElement(data, 0, "ßàř");
 * t.getElement(data, 0); // "ßàř"
 * ```
 */
export class FixedUnicodeType implements DataType<string, Uint32Array> {
  readonly kind = "string";
  readonly name: string;
  readonly lanes: number;
  readonly itemSize: number;
  readonly endianSensitive = true;
  readonly defaultFill = "";

  constructor(
    /** Code points per element. */
    readonly length: number,
  ) {
    this.lanes = length;
    this.itemSize = 4 * length;
    this.name = `fixed_length_utf32(${length})`;
  }

  create(length: number): Uint32Array {
    return new Uint32Array(length * this.length);
  }

  toV3(): JsonValue {
    return { name: "fixed_length_utf32", configuration: { length_bytes: this.itemSize } };
  }

  toV2(endian: Endian): JsonValue {
    return `${endian === "big" ? ">" : "<"}U${this.length}`;
  }

  encode(data: Uint32Array, endian: Endian): Uint8Array {
    if (!needsSwap(endian, 4)) return bytesOf(data);
    const out = bytesOf(data).slice();
    swapBytesInPlace(out, 4);
    return out;
  }

  decode(bytes: Uint8Array, length: number, endian: Endian): Uint32Array {
    const swap = needsSwap(endian, 4);
    const source =
      swap || bytes.byteOffset % 4 !== 0 ? bytes.slice(0, length * this.itemSize) : bytes;
    if (swap) swapBytesInPlace(source, 4);
    return new Uint32Array(source.buffer, source.byteOffset, length * this.length);
  }

  /** A string of at most `length` code points; v2 also takes numbers (NumPy casts 0 to "0"). */
  parseFill(json: JsonValue, format: ZarrFormat): string {
    if (json === null && format === 2) return "";
    let text: string;
    if (typeof json === "string") text = json;
    else if (format === 2 && (typeof json === "number" || typeof json === "bigint"))
      text = String(json);
    else
      throw new FillValueError(
        `Invalid ${this.name} fill value ${JSON.stringify(String(json))}: expected a string`,
      );
    const points = codePoints(text);
    if (points.length > this.length) {
      if (format === 3) {
        throw new FillValueError(
          `Invalid ${this.name} fill value ${JSON.stringify(text)}: ${points.length} characters, more than the ${this.length} an element holds`,
        );
      }
      // NumPy cuts a longer value when it casts it to the array's type.
      return String.fromCodePoint(...points.slice(0, this.length));
    }
    return text.replace(/\0+$/, "");
  }

  fillToJson(value: string): JsonValue {
    return value;
  }

  /**
   * Accepts a string of at most `length` code points. Numbers are not turned into text, and a
   * longer string is a {@link ValueTypeError} (NumPy would cut it silently).
   */
  coerce(value: unknown): string {
    if (typeof value !== "string") throw new ValueTypeError(value, this.name, "expected a string");
    if (value.length > this.length) {
      // Only strings longer in UTF-16 units can be longer in code points: count those.
      const count = codePoints(value).length;
      if (count > this.length) {
        throw new ValueTypeError(
          value,
          this.name,
          `${count} characters, more than the ${this.length} an element holds`,
        );
      }
    }
    return value;
  }

  fill(data: Uint32Array, value: string, start = 0, end = data.length / this.length): void {
    const size = this.length;
    data.fill(0, start * size, end * size);
    const points = codePoints(value).slice(0, size);
    if (points.length === 0) return;
    for (let i = start; i < end; i++) data.set(points, i * size);
  }

  isAllFill(data: Uint32Array, value: string): boolean {
    const size = this.length;
    const padded = new Uint32Array(size);
    padded.set(codePoints(value).slice(0, size));
    for (let i = 0; i < data.length; i++) if (data[i] !== padded[i % size]) return false;
    return true;
  }

  getElement(data: Uint32Array, index: number): string {
    return stringAt(data, index * this.length, this.length);
  }

  setElement(data: Uint32Array, index: number, value: string): void {
    const start = index * this.length;
    data.fill(0, start, start + this.length);
    data.set(codePoints(value).slice(0, this.length), start);
  }

  toJsonElement(value: string): JsonValue {
    return value;
  }
}

/** The `U` type of a length in code points (v2 `<U<length>`, v3 `fixed_length_utf32`). */
export function fixedLengthUnicode(length: number): FixedUnicodeType {
  if (!Number.isSafeInteger(length) || length < 1)
    throw new RangeError(`A U type needs a positive length, got ${length}`);
  return new FixedUnicodeType(length);
}

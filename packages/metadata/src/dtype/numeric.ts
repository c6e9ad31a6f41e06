import { formatValue } from "@z/errors";
import type { TypedArray } from "@z/ndarray";
import {
  BoolArray,
  bytesOf,
  halfToNumber,
  NativeFloat16Array,
  needsSwap,
  numberToHalf,
  swapBytesInPlace,
} from "@z/ndarray";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { floatFillToJson, floatToJson, integerToJson, parseFloatFill } from "./numeric-json.js";
import type { DataType, DataTypeKind, Endian, ZarrFormat } from "./types.js";
import { ValueTypeError } from "./value-errors.js";

type Scalar = number | bigint | boolean;
type TypedArrayConstructor = {
  new (length: number): TypedArray;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray;
  readonly BYTES_PER_ELEMENT: number;
};

interface NumericSpec {
  name: string;
  kind: DataTypeKind;
  itemSize: number;
  /** The container class. */
  ctor: TypedArrayConstructor;
  /** The v2 type character: b, i, u, f. */
  v2Char: string;
  /** For integer types, the inclusive range. */
  min?: bigint;
  max?: bigint;
}

class NumericType implements DataType<Scalar, TypedArray> {
  readonly name: string;
  readonly kind: DataTypeKind;
  readonly itemSize: number;
  readonly lanes = 1;
  readonly endianSensitive: boolean;
  readonly defaultFill: Scalar;
  private readonly ctor: TypedArrayConstructor;
  private readonly isBig: boolean;
  /** Float16 held in a Float32Array because the runtime has no Float16Array. */
  private readonly halfFallback: boolean;
  /** The integer range as numbers, for the check of each element written (not 64-bit types). */
  private readonly minNumber: number;
  private readonly maxNumber: number;

  constructor(private readonly spec: NumericSpec) {
    this.name = spec.name;
    this.kind = spec.kind;
    this.itemSize = spec.itemSize;
    this.ctor = spec.ctor;
    this.endianSensitive = spec.itemSize > 1;
    this.isBig = spec.ctor === BigInt64Array || spec.ctor === BigUint64Array;
    this.halfFallback =
      spec.itemSize === 2 && spec.kind === "float" && spec.ctor.BYTES_PER_ELEMENT === 4;
    this.defaultFill = spec.kind === "bool" ? false : this.isBig ? 0n : 0;
    this.minNumber = Number(spec.min ?? 0);
    this.maxNumber = Number(spec.max ?? 0);
    this.coerceByKind =
      spec.kind === "bool"
        ? (value) => this.coerceBool(value)
        : spec.kind === "float"
          ? (value) => this.coerceFloat(value)
          : this.isBig
            ? (value) => this.coerceBigInt(value)
            : (value) => this.coerceInt(value);
  }

  create(length: number): TypedArray {
    return new this.ctor(length);
  }

  toV3(): JsonValue {
    return this.name;
  }

  toV2(endian: Endian): JsonValue {
    const order = this.itemSize === 1 ? "|" : endian === "little" ? "<" : ">";
    return `${order}${this.spec.v2Char}${this.itemSize}`;
  }

  encode(data: TypedArray, endian: Endian): Uint8Array {
    if (this.halfFallback) {
      const bits = new Uint16Array(data.length);
      for (let i = 0; i < data.length; i++) bits[i] = numberToHalf(data[i] as number);
      const out = bytesOf(bits);
      if (needsSwap(endian, 2)) swapBytesInPlace(out, 2);
      return out;
    }
    if (!needsSwap(endian, this.itemSize)) return bytesOf(data);
    const out = bytesOf(data).slice();
    swapBytesInPlace(out, this.itemSize);
    return out;
  }

  decode(bytes: Uint8Array, length: number, endian: Endian): TypedArray {
    const size = this.itemSize;
    if (this.halfFallback) {
      const out = new Float32Array(length);
      const big = endian === "big";
      for (let i = 0; i < length; i++) {
        const lo = bytes[2 * i];
        const hi = bytes[2 * i + 1];
        out[i] = halfToNumber(big ? (lo << 8) | hi : (hi << 8) | lo);
      }
      return out;
    }
    const swap = needsSwap(endian, size);
    // A TypedArray view needs an aligned offset; copying also gives us a buffer we may swap.
    // Uint8Array's own slice copies: a Node Buffer's `slice` is a view of the caller's bytes.
    const source =
      swap || bytes.byteOffset % size !== 0
        ? Uint8Array.prototype.slice.call(bytes, 0, length * size)
        : bytes;
    if (swap) swapBytesInPlace(source, size);
    return new this.ctor(source.buffer, source.byteOffset, length);
  }

  parseFill(json: JsonValue, format: ZarrFormat): Scalar {
    const where = `${this.name} fill value`;
    if (json === null && format === 2) return this.defaultFill;
    if (this.kind === "bool") {
      if (typeof json === "boolean") return json;
      if (format === 2 && (json === 0 || json === 1)) return json === 1;
      throw new FillValueError(`Invalid ${where} ${formatValue(json)}: expected true or false`);
    }
    if (this.kind === "float")
      return this.roundFloat(parseFloatFill(json, this.itemSize, this.name));
    return this.parseIntegerFill(json, where);
  }

  private roundFloat(value: number): number {
    if (this.itemSize === 4) return Math.fround(value);
    if (this.itemSize === 2) return halfToNumber(numberToHalf(value));
    return value;
  }

  private parseIntegerFill(json: JsonValue, where: string): Scalar {
    let value: bigint;
    if (typeof json === "bigint") value = json;
    else if (typeof json === "number" && Number.isInteger(json)) value = BigInt(json);
    else throw new FillValueError(`Invalid ${where} ${formatValue(json)}: expected an integer`);
    const { min, max } = this.spec;
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
      throw new FillValueError(
        `Invalid ${where} ${value}: outside the range ${min}..${max} of ${this.name}`,
      );
    }
    return this.isBig ? value : Number(value);
  }

  fillToJson(value: Scalar, format: ZarrFormat): JsonValue {
    if (this.kind === "bool") return Boolean(value);
    if (this.kind === "float") return floatFillToJson(Number(value), this.itemSize, format);
    return typeof value === "bigint" && Number.isSafeInteger(Number(value)) ? Number(value) : value;
  }

  /**
   * Checks and converts a value written to the array; anything the type cannot hold exactly
   * is a {@link ValueTypeError} (nothing is rounded, wrapped or clamped):
   * - `bool`: `true`, `false`, and `0`/`1` (numbers or bigints);
   * - integer types: integer numbers and bigints within the type's range, and booleans;
   *   `int64`/`uint64` take numbers only up to 2^53 in magnitude (beyond it a number may
   *   already differ from the integer that was meant: pass a bigint);
   * - float types: numbers (NaN and ±Infinity included), bigints and booleans; a finite
   *   value too large for `float16`/`float32` is an error rather than ±Infinity.
   * Strings are never parsed: `"5"` and `"NaN"` are errors for every numeric type.
   */
  coerce(value: unknown): Scalar {
    return this.coerceByKind(value);
  }

  /** The check of this type's family, chosen once: `coerce` runs for every element written. */
  private readonly coerceByKind: (value: unknown) => Scalar;

  private coerceBool(value: unknown): boolean {
    if (typeof value === "boolean") return value;
    if (value === 0 || value === 0n) return false;
    if (value === 1 || value === 1n) return true;
    throw new ValueTypeError(value, this.name, "expected true, false, 0 or 1");
  }

  private coerceFloat(value: unknown): number {
    let n: number;
    if (typeof value === "number") n = value;
    else if (typeof value === "bigint") n = Number(value);
    else if (typeof value === "boolean") return value ? 1 : 0;
    else
      throw new ValueTypeError(
        value,
        this.name,
        typeof value === "string"
          ? 'strings are not parsed as numbers; pass a number (Number.NaN, not "NaN")'
          : "expected a number",
      );
    if (this.itemSize < 8 && Number.isFinite(n) && this.overflows(n)) {
      throw new ValueTypeError(
        value,
        this.name,
        `its magnitude is beyond the largest ${this.name}`,
      );
    }
    return n;
  }

  /** Whether a finite number rounds to ±Infinity in this (16- or 32-bit) float type. */
  private overflows(n: number): boolean {
    // 65520 is halfway between the largest half (65504) and 2^16, so it rounds to Infinity.
    return this.itemSize === 2 ? Math.abs(n) >= 65520 : !Number.isFinite(Math.fround(n));
  }

  private coerceInt(value: unknown): number {
    if (typeof value === "number") {
      // `|| 0` stores -0 as 0 (an integer has no sign of zero).
      if (value >= this.minNumber && value <= this.maxNumber && Number.isInteger(value)) {
        return value || 0;
      }
    } else if (typeof value === "bigint") {
      if (this.inRange(value)) return Number(value);
    } else if (typeof value === "boolean") {
      return value ? 1 : 0;
    }
    throw this.notAnInteger(value);
  }

  private coerceBigInt(value: unknown): bigint {
    if (typeof value === "bigint") {
      if (this.inRange(value)) return value;
    } else if (typeof value === "number") {
      if (Number.isSafeInteger(value) && this.inRange(BigInt(value))) return BigInt(value);
    } else if (typeof value === "boolean") {
      return value ? 1n : 0n;
    }
    throw this.notAnInteger(value);
  }

  private inRange(value: bigint): boolean {
    return value >= (this.spec.min as bigint) && value <= (this.spec.max as bigint);
  }

  private notAnInteger(value: unknown): ValueTypeError {
    const range = `${this.spec.min}..${this.spec.max}`;
    let reason = `expected an integer in ${range}`;
    if (typeof value === "number") {
      if (Number.isNaN(value)) reason = `NaN has no ${this.name} value`;
      else if (!Number.isFinite(value)) reason = `${value} has no ${this.name} value`;
      else if (!Number.isInteger(value)) reason = `not an integer; ${this.name} holds integers`;
      else if (this.isBig && !Number.isSafeInteger(value) && this.inRange(BigInt(value)))
        reason = "numbers beyond 2^53 are not exact integers; pass a bigint";
      else reason = `outside the range ${range} of ${this.name}`;
    } else if (typeof value === "bigint") {
      reason = `outside the range ${range} of ${this.name}`;
    } else if (typeof value === "string") {
      reason = `strings are not parsed as numbers; expected an integer in ${range}`;
    }
    return new ValueTypeError(value, this.name, reason);
  }

  fill(data: TypedArray, value: Scalar, start?: number, end?: number): void {
    const v = this.kind === "bool" ? (value ? 1 : 0) : value;
    (data as unknown as { fill(v: unknown, s?: number, e?: number): void }).fill(v, start, end);
  }

  isAllFill(data: TypedArray, value: Scalar): boolean {
    const v = this.kind === "bool" ? (value ? 1 : 0) : value;
    const n = data.length;
    if (typeof v === "number" && Number.isNaN(v)) {
      for (let i = 0; i < n; i++) if (!Number.isNaN(data[i])) return false;
      return true;
    }
    if (this.kind === "float" && v === 0) {
      // -0 is a value of its own: a chunk of -0 is not a chunk of the fill value 0 (nor the reverse).
      const sign = 1 / v;
      for (let i = 0; i < n; i++) {
        const x = data[i] as number;
        if (x !== 0 || 1 / x !== sign) return false;
      }
      return true;
    }
    for (let i = 0; i < n; i++) if (data[i] !== v) return false;
    return true;
  }

  getElement(data: TypedArray, index: number): Scalar {
    const v = data[index];
    return this.kind === "bool" ? v !== 0 : v;
  }

  setElement(data: TypedArray, index: number, value: Scalar): void {
    (data as unknown as Scalar[])[index] = this.kind === "bool" ? (value ? 1 : 0) : value;
  }

  toJsonElement(value: Scalar): JsonValue {
    if (this.kind === "bool") return Boolean(value);
    if (this.kind === "float") return floatToJson(Number(value));
    return integerToJson(value as number | bigint);
  }
}

const int = (bits: number): [bigint, bigint] => [
  -(1n << BigInt(bits - 1)),
  (1n << BigInt(bits - 1)) - 1n,
];
const uint = (bits: number): [bigint, bigint] => [0n, (1n << BigInt(bits)) - 1n];

function integer(name: string, itemSize: number, ctor: TypedArrayConstructor, signed: boolean) {
  const [min, max] = signed ? int(itemSize * 8) : uint(itemSize * 8);
  return new NumericType({
    name,
    kind: signed ? "int" : "uint",
    itemSize,
    ctor,
    v2Char: signed ? "i" : "u",
    min,
    max,
  });
}

/** `bool`: one byte per element; held in a {@link BoolArray}. */
export const bool: DataType = new NumericType({
  name: "bool",
  kind: "bool",
  itemSize: 1,
  ctor: BoolArray,
  v2Char: "b",
});
/** `int8`, held in an Int8Array. */
export const int8: DataType = integer("int8", 1, Int8Array, true);
/** `int16`, held in an Int16Array. */
export const int16: DataType = integer("int16", 2, Int16Array, true);
/** `int32`, held in an Int32Array. */
export const int32: DataType = integer("int32", 4, Int32Array, true);
/** `int64`, held in a BigInt64Array (elements are bigint). */
export const int64: DataType = integer("int64", 8, BigInt64Array, true);
/** `uint8`, held in a Uint8Array. */
export const uint8: DataType = integer("uint8", 1, Uint8Array, false);
/** `uint16`, held in a Uint16Array. */
export const uint16: DataType = integer("uint16", 2, Uint16Array, false);
/** `uint32`, held in a Uint32Array. */
export const uint32: DataType = integer("uint32", 4, Uint32Array, false);
/** `uint64`, held in a BigUint64Array (elements are bigint). */
export const uint64: DataType = integer("uint64", 8, BigUint64Array, false);
/**
 * `float16`: held in a Float16Array where the runtime has one; otherwise in a Float32Array
 * whose values are rounded to half precision when stored.
 */
export const float16: DataType = new NumericType({
  name: "float16",
  kind: "float",
  itemSize: 2,
  ctor: (NativeFloat16Array ?? Float32Array) as unknown as TypedArrayConstructor,
  v2Char: "f",
});
/** `float32`, held in a Float32Array. */
export const float32: DataType = new NumericType({
  name: "float32",
  kind: "float",
  itemSize: 4,
  ctor: Float32Array,
  v2Char: "f",
});
/** `float64`, held in a Float64Array. */
export const float64: DataType = new NumericType({
  name: "float64",
  kind: "float",
  itemSize: 8,
  ctor: Float64Array,
  v2Char: "f",
});

/** Every numeric data type of the core spec, by v3 name. */
export const numericDataTypes: readonly DataType[] = [
  bool,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  float32,
  float64,
];

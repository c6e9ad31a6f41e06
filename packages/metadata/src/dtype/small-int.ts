import { formatValue } from "@z/errors";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { noV2Form } from "./minifloat-internal.js";
import type { DataType, Endian } from "./types.js";
import { ValueTypeError } from "./value-errors.js";

/**
 * A 2- or 4-bit integer type of the zarr-extensions registry (`int2`, `int4`, `uint2`,
 * `uint4`). Elements are held in an Int8Array (signed) or Uint8Array (unsigned); the `bytes`
 * codec stores one per byte in the low bits, writing the upper bits as zero and ignoring them
 * when reading (as the registry specifies); `packbits` stores them at their own width.
 */
export class SmallIntType implements DataType<number, Int8Array | Uint8Array> {
  readonly kind: "int" | "uint";
  readonly name: string;
  readonly itemSize = 1;
  readonly lanes = 1;
  readonly endianSensitive = false;
  readonly defaultFill = 0;
  /** The inclusive range. */
  readonly min: number;
  readonly max: number;
  private readonly mask: number;

  constructor(
    /** Bits of a value: 2 or 4. */
    readonly bits: 2 | 4,
    /** Whether values are two's complement. */
    readonly signed: boolean,
  ) {
    this.kind = signed ? "int" : "uint";
    this.name = `${this.kind}${bits}`;
    this.min = signed ? -(2 ** (bits - 1)) : 0;
    this.max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
    this.mask = 2 ** bits - 1;
  }

  create(length: number): Int8Array | Uint8Array {
    return this.signed ? new Int8Array(length) : new Uint8Array(length);
  }

  toV3(): JsonValue {
    return this.name;
  }

  toV2(): JsonValue {
    return noV2Form(this.name);
  }

  /** The code of a value: its low `bits` bits, upper bits zero. */
  toCode(value: number): number {
    return value & this.mask;
  }

  /** The value of a code: its low `bits` bits, sign-extended for signed types. */
  fromCode(code: number): number {
    const low = code & this.mask;
    return this.signed && low > this.max ? low - 2 ** this.bits : low;
  }

  encode(data: Int8Array | Uint8Array, _endian: Endian): Uint8Array {
    const out = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i++) out[i] = data[i] & this.mask;
    return out;
  }

  decode(bytes: Uint8Array, length: number, _endian: Endian): Int8Array | Uint8Array {
    const out = this.create(length);
    for (let i = 0; i < length; i++) out[i] = this.fromCode(bytes[i]);
    return out;
  }

  /** An integer within the range (as for the core integer types). @throws FillValueError */
  parseFill(json: JsonValue): number {
    if (
      typeof json === "number" &&
      Number.isInteger(json) &&
      json >= this.min &&
      json <= this.max
    ) {
      return json || 0;
    }
    throw new FillValueError(
      `Invalid ${this.name} fill value ${formatValue(json)}: expected an integer in ${this.min}..${this.max}`,
    );
  }

  fillToJson(value: number): JsonValue {
    return value;
  }

  /**
   * Integer numbers and bigints within the range, and booleans; anything else (fractions,
   * NaN, out of range, strings) is a {@link ValueTypeError}: nothing is wrapped or clamped.
   */
  coerce(value: unknown): number {
    if (typeof value === "boolean") return value ? 1 : 0;
    const n = typeof value === "bigint" ? Number(value) : value;
    if (typeof n === "number" && Number.isInteger(n) && n >= this.min && n <= this.max) {
      return n || 0;
    }
    throw new ValueTypeError(
      value,
      this.name,
      typeof value === "string"
        ? `strings are not parsed as numbers; expected an integer in ${this.min}..${this.max}`
        : `expected an integer in ${this.min}..${this.max}`,
    );
  }

  fill(data: Int8Array | Uint8Array, value: number, start = 0, end = data.length): void {
    data.fill(value, start, end);
  }

  isAllFill(data: Int8Array | Uint8Array, value: number): boolean {
    for (let i = 0; i < data.length; i++) if (data[i] !== value) return false;
    return true;
  }

  getElement(data: Int8Array | Uint8Array, index: number): number {
    return data[index];
  }

  setElement(data: Int8Array | Uint8Array, index: number, value: number): void {
    data[index] = value;
  }

  toJsonElement(value: number): JsonValue {
    return value;
  }
}

/** `int2`: -2..1, held in an Int8Array. */
export const int2: SmallIntType = new SmallIntType(2, true);
/** `int4`: -8..7, held in an Int8Array. */
export const int4: SmallIntType = new SmallIntType(4, true);
/** `uint2`: 0..3, held in a Uint8Array. */
export const uint2: SmallIntType = new SmallIntType(2, false);
/** `uint4`: 0..15, held in a Uint8Array. */
export const uint4: SmallIntType = new SmallIntType(4, false);

/** The 2- and 4-bit integer types of the registry. */
export const smallIntDataTypes: readonly SmallIntType[] = [int2, int4, uint2, uint4];

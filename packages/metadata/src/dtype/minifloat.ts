import { formatValue } from "@z/errors";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { miniFloatHas } from "./minifloat-codes.js";
import {
  decodeMiniFloat,
  encodeMiniFloat,
  type MiniFloatFormat,
  miniFloatFormats,
} from "./minifloat-format.js";
import { notANumberReason, noV2Form, sameStoredFloat } from "./minifloat-internal.js";
import { miniFloatMax } from "./minifloat-max.js";
import { floatToJson } from "./numeric-json.js";
import type { DataType, Endian, ZarrFormat } from "./types.js";
import { ValueTypeError } from "./value-errors.js";

/**
 * Conversions between numbers and the codes of one small float format: the element codec the
 * data types below share with their complex variants (and that a `cast_value` codec can use).
 */
export class MiniFloatCodec {
  /** Stored bytes per value: 2 for bfloat16 and float16, 1 for the 8-, 6- and 4-bit formats. */
  readonly byteSize: number;
  /** The value of every code, for formats of at most 8 bits. */
  private readonly table: Float32Array | undefined;
  /** The largest finite value. */
  readonly max: number;
  private readonly has: ReturnType<typeof miniFloatHas>;
  /**
   * The magnitude from which numbers round beyond the largest value: the largest value plus
   * half its spacing (ties go to the even code above it). Infinite for e8m0, whose overflow
   * the encoder reports itself (as NaN).
   */
  private readonly overflowFrom: number;

  constructor(readonly format: MiniFloatFormat) {
    this.byteSize = format.bits > 8 ? 2 : 1;
    this.max = miniFloatMax(format);
    this.has = miniFloatHas(format);
    this.overflowFrom =
      format.specials === "e8m0"
        ? Number.POSITIVE_INFINITY
        : this.max + (this.max - this.toNumber(this.toCode(this.max) - 1)) / 2;
    if (format.bits <= 8) {
      this.table = new Float32Array(256);
      for (let code = 0; code < 256; code++) this.table[code] = decodeMiniFloat(format, code);
    }
  }

  /** The value of a code (bits above the format's width are ignored). */
  toNumber(code: number): number {
    return this.table ? this.table[code & 0xff] : decodeMiniFloat(this.format, code);
  }

  /** The code of a number, rounded to nearest even (see `encodeMiniFloat` for the rest). */
  toCode(value: number): number {
    return encodeMiniFloat(this.format, value);
  }

  /** A number rounded to the nearest value of the format (what storing and reading gives). */
  round(value: number): number {
    return this.toNumber(this.toCode(value));
  }

  /**
   * The value a number is stored as, or why the format cannot hold it: NaN or ±Infinity where
   * the format has none, a finite number beyond the largest value, zero or a negative number
   * for the unsigned `float8_e8m0fnu`. Finite numbers in range are rounded, never refused.
   */
  check(value: number): number | string {
    const name = this.format.name;
    if (Number.isNaN(value)) return this.has.nan ? value : `${name} has no NaN`;
    if (!Number.isFinite(value)) return this.has.infinity ? value : `${name} has no infinity`;
    if (this.format.specials === "e8m0" && value <= 0) {
      return `${name} holds positive powers of two only (no zero, no sign)`;
    }
    const rounded = this.round(value);
    // Checked before rounding too: the fn formats saturate rather than overflow.
    if (!Number.isFinite(rounded) || Math.abs(value) >= this.overflowFrom) {
      return `its magnitude is beyond the largest ${name} (${this.max})`;
    }
    return rounded;
  }

  /** Writes the codes of `values` into `out` (little or big endian for 2-byte codes). */
  encodeInto(values: ArrayLike<number>, out: Uint8Array, endian: Endian): void {
    if (this.byteSize === 1) {
      for (let i = 0; i < values.length; i++) out[i] = this.toCode(values[i]);
      return;
    }
    const big = endian === "big";
    const bfloat16Bits = this.format.name === "bfloat16" && values instanceof Float32Array;
    const bits = bfloat16Bits
      ? new Uint32Array(values.buffer, values.byteOffset, values.length)
      : undefined;
    for (let i = 0; i < values.length; i++) {
      const code = bits ? bfloat16FromFloat32Bits(bits[i]) : this.toCode(values[i]);
      out[2 * i + (big ? 1 : 0)] = code & 0xff;
      out[2 * i + (big ? 0 : 1)] = code >> 8;
    }
  }

  /** Reads `out.length` values from their codes in `bytes`. */
  decodeInto(bytes: Uint8Array, out: Float32Array, endian: Endian): void {
    if (this.table) {
      for (let i = 0; i < out.length; i++) out[i] = this.table[bytes[i]];
      return;
    }
    const big = endian === "big";
    const code = (i: number) => {
      const lo = bytes[2 * i];
      const hi = bytes[2 * i + 1];
      return big ? (lo << 8) | hi : (hi << 8) | lo;
    };
    if (this.format.name !== "bfloat16") {
      // IEEE half precision (the parts of complex_float16), decoded by its own rules.
      for (let i = 0; i < out.length; i++) out[i] = this.toNumber(code(i));
      return;
    }
    // bfloat16 is the upper half of a float32: its bits move there whole, NaN payloads included.
    const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
    for (let i = 0; i < out.length; i++) bits[i] = code(i) << 16;
  }

  /**
   * A fill value from metadata: a number (rounded to the format), `"NaN"`, `"Infinity"`,
   * `"-Infinity"` where the format has them, or a `"0x.."` hex string of the raw code.
   * @throws FillValueError
   */
  parseFill(json: JsonValue, typeName = this.format.name): number {
    let value: number;
    if (typeof json === "number") value = json;
    // A large integral value (a bfloat16 can reach 3.4e38) parses as a bigint.
    else if (typeof json === "bigint") value = Number(json);
    else if (json === "NaN") value = Number.NaN;
    else if (json === "Infinity") value = Number.POSITIVE_INFINITY;
    else if (json === "-Infinity") value = Number.NEGATIVE_INFINITY;
    else if (typeof json === "string" && /^0x[0-9a-fA-F]+$/.test(json)) {
      const code = Number.parseInt(json.slice(2), 16);
      if (json.length !== 2 + this.byteSize * 2 || code >= 2 ** this.format.bits) {
        throw new FillValueError(
          `Fill value ${json} for ${typeName} must be ${this.byteSize * 2} hex digits of a code below 0x${(2 ** this.format.bits).toString(16)}`,
        );
      }
      return this.toNumber(code);
    } else {
      throw new FillValueError(
        `Invalid fill value ${formatValue(json)} for ${typeName}: expected a number, "NaN", "Infinity", "-Infinity" or a hex code like "0x${"0".repeat(2 * this.byteSize)}"`,
      );
    }
    const checked = this.check(value);
    if (typeof checked === "string") {
      throw new FillValueError(
        `Invalid fill value ${formatValue(json)} for ${typeName}: ${checked}`,
      );
    }
    return checked;
  }

  /** The metadata form of a fill value: a number, a non-finite constant, or the hex code of -0. */
  fillToJson(value: number): JsonValue {
    if (Object.is(value, -0)) {
      return `0x${this.toCode(value)
        .toString(16)
        .padStart(2 * this.byteSize, "0")}`;
    }
    return floatToJson(value);
  }
}

/**
 * The bfloat16 code of float32 bits: the upper half, rounded to nearest even on the lower
 * half (the generic encoder gives the same for every float32; this is its fast path).
 */
function bfloat16FromFloat32Bits(bits: number): number {
  if ((bits & 0x7fffffff) > 0x7f800000) return 0x7fc0;
  return (bits + 0x7fff + ((bits >>> 16) & 1)) >>> 16;
}

/**
 * A small float data type of the zarr-extensions registry (`bfloat16`, `float8_*`, `float6_*`,
 * `float4_e2m1fn`). Elements are held in a Float32Array (every value of these formats is a
 * float32 exactly) and stored as one code per byte (two bytes for bfloat16), rounded to
 * nearest even when encoded.
 */
export class MiniFloatType implements DataType<number, Float32Array> {
  readonly kind = "float";
  readonly lanes = 1;
  readonly name: string;
  readonly itemSize: number;
  readonly endianSensitive: boolean;
  /** 0, or the smallest value (2^-127) for `float8_e8m0fnu`, which has no zero. */
  readonly defaultFill: number;
  /** The element codec. */
  readonly codec: MiniFloatCodec;

  constructor(format: MiniFloatFormat) {
    this.codec = new MiniFloatCodec(format);
    this.name = format.name;
    this.itemSize = this.codec.byteSize;
    this.endianSensitive = this.itemSize > 1;
    this.defaultFill = this.codec.toNumber(0);
  }

  /** Zeroed elements (for `float8_e8m0fnu`, code 0: 2^-127). */
  create(length: number): Float32Array {
    const out = new Float32Array(length);
    if (this.defaultFill !== 0) out.fill(this.defaultFill);
    return out;
  }

  toV3(): JsonValue {
    return this.name;
  }

  toV2(): JsonValue {
    return noV2Form(this.name);
  }

  encode(data: Float32Array, endian: Endian): Uint8Array {
    const out = new Uint8Array(data.length * this.itemSize);
    this.codec.encodeInto(data, out, endian);
    return out;
  }

  decode(bytes: Uint8Array, length: number, endian: Endian): Float32Array {
    const out = new Float32Array(length);
    this.codec.decodeInto(bytes, out, endian);
    return out;
  }

  parseFill(json: JsonValue, _format: ZarrFormat): number {
    return this.codec.parseFill(json, this.name);
  }

  fillToJson(value: number): JsonValue {
    return this.codec.fillToJson(value);
  }

  /**
   * Numbers (bigints and booleans too) rounded to the nearest value of the type. Refused with
   * a {@link ValueTypeError}: strings, NaN or ±Infinity where the type has none, finite
   * numbers beyond its largest value, and zero or negatives for `float8_e8m0fnu`.
   */
  coerce(value: unknown): number {
    let n: number;
    if (typeof value === "number") n = value;
    else if (typeof value === "bigint") n = Number(value);
    else if (typeof value === "boolean") n = value ? 1 : 0;
    else throw new ValueTypeError(value, this.name, notANumberReason(value));
    const checked = this.codec.check(n);
    if (typeof checked === "string") throw new ValueTypeError(value, this.name, checked);
    return checked;
  }

  fill(data: Float32Array, value: number, start = 0, end = data.length): void {
    data.fill(value, start, end);
  }

  isAllFill(data: Float32Array, value: number): boolean {
    const fill = this.codec.round(value);
    for (let i = 0; i < data.length; i++) if (!sameStoredFloat(data[i], fill)) return false;
    return true;
  }

  getElement(data: Float32Array, index: number): number {
    return data[index];
  }

  setElement(data: Float32Array, index: number, value: number): void {
    data[index] = value;
  }

  toJsonElement(value: number): JsonValue {
    return floatToJson(value);
  }
}

const type = (name: string) => new MiniFloatType(miniFloatFormats[name]);

/** `bfloat16`: float32 cut to 16 bits (8 exponent, 7 mantissa bits), NaN and ±Infinity. */
export const bfloat16: MiniFloatType = type("bfloat16");
/** `float8_e3m4`: IEEE-style 8-bit float, bias 3, NaN and ±Infinity. */
export const float8_e3m4: MiniFloatType = type("float8_e3m4");
/** `float8_e4m3`: IEEE-style 8-bit float, bias 7, NaN and ±Infinity (largest 240). */
export const float8_e4m3: MiniFloatType = type("float8_e4m3");
/** `float8_e5m2`: IEEE-style 8-bit float, bias 15, NaN and ±Infinity (largest 57344). */
export const float8_e5m2: MiniFloatType = type("float8_e5m2");
/** `float8_e4m3fnuz`: bias 8, finite, one NaN (0x80), no -0. */
export const float8_e4m3fnuz: MiniFloatType = type("float8_e4m3fnuz");
/** `float8_e4m3b11fnuz`: bias 11, finite, one NaN (0x80), no -0. */
export const float8_e4m3b11fnuz: MiniFloatType = type("float8_e4m3b11fnuz");
/** `float8_e5m2fnuz`: bias 16, finite, one NaN (0x80), no -0. */
export const float8_e5m2fnuz: MiniFloatType = type("float8_e5m2fnuz");
/** `float8_e8m0fnu`: unsigned powers of two 2^-127..2^127, NaN 0xFF, no zero. */
export const float8_e8m0fnu: MiniFloatType = type("float8_e8m0fnu");
/** `float6_e2m3fn`: 6-bit float, bias 1, finite, no NaN (largest 7.5). */
export const float6_e2m3fn: MiniFloatType = type("float6_e2m3fn");
/** `float6_e3m2fn`: 6-bit float, bias 3, finite, no NaN (largest 28). */
export const float6_e3m2fn: MiniFloatType = type("float6_e3m2fn");
/** `float4_e2m1fn`: 4-bit float, bias 1, finite, no NaN (values 0, 0.5, 1, 1.5, 2, 3, 4, 6). */
export const float4_e2m1fn: MiniFloatType = type("float4_e2m1fn");

/** Every small float data type of the registry. */
export const miniFloatDataTypes: readonly MiniFloatType[] = [
  bfloat16,
  float8_e3m4,
  float8_e4m3,
  float8_e5m2,
  float8_e4m3fnuz,
  float8_e4m3b11fnuz,
  float8_e5m2fnuz,
  float8_e8m0fnu,
  float6_e2m3fn,
  float6_e3m2fn,
  float4_e2m1fn,
];

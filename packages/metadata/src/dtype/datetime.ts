import { formatValue } from "@z/errors";
import { bytesOf, needsSwap, swapBytesInPlace } from "@z/ndarray";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { InvalidDataTypeError } from "./dtype-errors.js";
import { integerToJson } from "./numeric-json.js";
import type { DataType, Endian, ZarrFormat } from "./types.js";
import { ValueTypeError } from "./value-errors.js";

/** The date strings `coerce` converts: ISO 8601 dates, optionally with a time. */
const ISO_DATE = /^[+-]?\d{4,6}(-\d{2}(-\d{2}([T ]\S+)?)?)?$/;

/** NumPy's time units, plus `generic` (a datetime64 or timedelta64 without a unit). */
export type DateTimeUnit =
  | "Y"
  | "M"
  | "W"
  | "D"
  | "h"
  | "m"
  | "s"
  | "ms"
  | "us"
  | "ns"
  | "ps"
  | "fs"
  | "as"
  | "generic";

/** Every unit NumPy knows (`μs` is read as `us`). */
export const DATETIME_UNITS: readonly DateTimeUnit[] = [
  "Y",
  "M",
  "W",
  "D",
  "h",
  "m",
  "s",
  "ms",
  "us",
  "ns",
  "ps",
  "fs",
  "as",
  "generic",
];

/** The value NumPy uses for "Not a Time": the smallest int64. */
export const NAT = -(2n ** 63n);

const INT64_MAX = 2n ** 63n - 1n;

/** Milliseconds per unit for units of at least a millisecond (Y and M are calendar units). */
const MS_PER_UNIT: Partial<Record<DateTimeUnit, bigint>> = {
  W: 604_800_000n,
  D: 86_400_000n,
  h: 3_600_000n,
  m: 60_000n,
  s: 1000n,
  ms: 1n,
};
/** Units per millisecond for units below a millisecond. */
const UNITS_PER_MS: Partial<Record<DateTimeUnit, bigint>> = {
  us: 1000n,
  ns: 1_000_000n,
  ps: 1_000_000_000n,
  fs: 1_000_000_000_000n,
  as: 1_000_000_000_000_000n,
};

/** Floor division of bigints (toward minus infinity, as NumPy converts datetimes). */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/**
 * Parses a unit as NumPy and the v3 specs spell it.
 * @throws InvalidDataTypeError for anything else
 */
export function parseDateTimeUnit(unit: unknown, where: string): DateTimeUnit {
  if (unit === "μs") return "us";
  if (typeof unit === "string" && (DATETIME_UNITS as readonly string[]).includes(unit))
    return unit as DateTimeUnit;
  throw new InvalidDataTypeError(
    `${where}: unknown time unit ${formatValue(unit)}; expected one of ${DATETIME_UNITS.join(", ")} (or μs)`,
  );
}

/**
 * `numpy.datetime64` and `numpy.timedelta64`: signed 64-bit counts of `scaleFactor` x `unit`
 * since the Unix epoch (datetime) or of duration (timedelta), with {@link NAT} for "Not a
 * Time". Held in a BigInt64Array; elements are bigint. v2 type strings `<M8[ns]`,
 * `>m8[10s]`, `<M8` (generic); v3 `{"name": "numpy.datetime64", "configuration": {"unit",
 * "scale_factor"}}`. Fill values are integers or `"NaT"`.
 *
 * ```ts
 * const t = datetime64("ms");
 * t.toDate(1_700_000_000_000n); // 2023-11-14T22:13:20.000Z
 * t.fromDate(new Date(0));     // 0n
 * ```
 */
export class DateTimeType implements DataType<bigint, BigInt64Array> {
  readonly itemSize = 8;
  readonly lanes = 1;
  readonly endianSensitive = true;
  readonly defaultFill = 0n;
  /** e.g. `datetime64[ns]`, `timedelta64[10s]`, `datetime64` (generic). */
  readonly name: string;

  constructor(
    /** `datetime` (instants) or `timedelta` (durations). */
    readonly kind: "datetime" | "timedelta",
    /** The unit of one count. */
    readonly unit: DateTimeUnit,
    /** How many units one count is (NumPy's `[10s]`). */
    readonly scaleFactor = 1,
  ) {
    const base = kind === "datetime" ? "datetime64" : "timedelta64";
    this.name =
      unit === "generic" ? base : `${base}[${scaleFactor === 1 ? "" : scaleFactor}${unit}]`;
  }

  create(length: number): BigInt64Array {
    return new BigInt64Array(length);
  }

  toV3(): JsonValue {
    return {
      name: this.kind === "datetime" ? "numpy.datetime64" : "numpy.timedelta64",
      configuration: { unit: this.unit, scale_factor: this.scaleFactor },
    };
  }

  toV2(endian: Endian): JsonValue {
    const char = this.kind === "datetime" ? "M" : "m";
    const order = endian === "big" ? ">" : "<";
    if (this.unit === "generic") return `${order}${char}8`;
    return `${order}${char}8[${this.scaleFactor === 1 ? "" : this.scaleFactor}${this.unit}]`;
  }

  encode(data: BigInt64Array, endian: Endian): Uint8Array {
    if (!needsSwap(endian, 8)) return bytesOf(data);
    const out = bytesOf(data).slice();
    swapBytesInPlace(out, 8);
    return out;
  }

  decode(bytes: Uint8Array, length: number, endian: Endian): BigInt64Array {
    const swap = needsSwap(endian, 8);
    const source = swap || bytes.byteOffset % 8 !== 0 ? bytes.slice(0, length * 8) : bytes;
    if (swap) swapBytesInPlace(source, 8);
    return new BigInt64Array(source.buffer, source.byteOffset, length);
  }

  /** An integer (number or bigint) within int64, or `"NaT"`; v2 `null` is the default. */
  parseFill(json: JsonValue, format: ZarrFormat): bigint {
    if (json === null && format === 2) return this.defaultFill;
    if (json === "NaT") return NAT;
    let value: bigint | undefined;
    if (typeof json === "bigint") value = json;
    else if (typeof json === "number" && Number.isInteger(json)) value = BigInt(json);
    if (value === undefined || value < NAT || value > INT64_MAX) {
      throw new FillValueError(
        `Invalid ${this.name} fill value ${formatValue(json)}: expected an int64 integer or "NaT"`,
      );
    }
    return value;
  }

  /** v3 writes NaT as `"NaT"`; v2 as the integer -2^63, which is what zarr-python 2 writes. */
  fillToJson(value: bigint, format: ZarrFormat): JsonValue {
    if (value === NAT && format === 3) return "NaT";
    return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  }

  /**
   * Accepts a bigint within int64, an integer number up to 2^53 in magnitude, `"NaT"` or
   * `null` (NaT), and for datetimes a `Date` (an invalid Date is NaT) or an ISO 8601 date
   * string (`"2024-05-01"`, `"2024-05-01T12:00Z"`), converted with {@link fromDate}. Anything
   * else (NaN, fractions, other strings, a date beyond int64 in this unit) is a
   * {@link ValueTypeError}.
   */
  coerce(value: unknown): bigint {
    if (typeof value === "bigint") {
      if (value >= NAT && value <= INT64_MAX) return value;
      throw new ValueTypeError(value, this.name, "outside the int64 range of its values");
    }
    if (typeof value === "number") {
      if (Number.isSafeInteger(value)) return BigInt(value);
      throw new ValueTypeError(
        value,
        this.name,
        Number.isInteger(value)
          ? "numbers beyond 2^53 are not exact integers; pass a bigint"
          : 'expected an integer count of its unit (NaT is "NaT" or null)',
      );
    }
    if (value === "NaT" || value === null) return NAT;
    if (this.kind === "datetime" && this.unit !== "generic") {
      if (value instanceof Date) return this.checkedFromDate(value, value);
      if (typeof value === "string" && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))) {
        return this.checkedFromDate(new Date(value), value);
      }
    }
    throw new ValueTypeError(
      value,
      this.name,
      'expected a bigint, an integer or "NaT"' +
        (this.kind === "datetime" && this.unit !== "generic"
          ? ", a Date or an ISO 8601 date string"
          : ""),
    );
  }

  private checkedFromDate(date: Date, value: unknown): bigint {
    const out = this.fromDate(date);
    if (out > NAT && out <= INT64_MAX) return out;
    if (Number.isNaN(date.getTime())) return NAT;
    throw new ValueTypeError(
      value,
      this.name,
      `the date is beyond the int64 range of ${this.name}`,
    );
  }

  isScalar(value: unknown): boolean {
    return value instanceof Date;
  }

  fill(data: BigInt64Array, value: bigint, start?: number, end?: number): void {
    data.fill(value, start, end);
  }

  isAllFill(data: BigInt64Array, value: bigint): boolean {
    for (let i = 0; i < data.length; i++) if (data[i] !== value) return false;
    return true;
  }

  getElement(data: BigInt64Array, index: number): bigint {
    return data[index];
  }

  setElement(data: BigInt64Array, index: number, value: bigint): void {
    data[index] = value;
  }

  /** NaT as `"NaT"`, other values as int64 (decimal strings beyond 2^53). */
  toJsonElement(value: bigint): JsonValue {
    return value === NAT ? "NaT" : integerToJson(value);
  }

  /**
   * The instant a datetime64 value stands for, or `null` for NaT. Units below a millisecond are
   * floored to the millisecond a `Date` can hold.
   * @throws TypeError for timedelta or generic types, or values beyond what a Date can hold
   */
  toDate(value: bigint): Date | null {
    if (this.kind !== "datetime")
      throw new TypeError(`${this.name} values are durations, not instants`);
    if (value === NAT) return null;
    const count = value * BigInt(this.scaleFactor);
    let ms: number;
    if (this.unit === "Y") ms = Date.UTC(1970 + Number(count), 0, 1);
    else if (this.unit === "M") ms = Date.UTC(1970, Number(count), 1);
    else if (this.unit === "generic")
      throw new TypeError("A generic datetime64 has no unit to convert with");
    else {
      const per = MS_PER_UNIT[this.unit];
      ms = Number(
        per !== undefined ? count * per : floorDiv(count, UNITS_PER_MS[this.unit] as bigint),
      );
    }
    const date = new Date(ms);
    if (Number.isNaN(date.getTime()))
      throw new TypeError(`${value} ${this.name} is beyond the range of a Date`);
    return date;
  }

  /**
   * The datetime64 value of an instant (floored to the unit, as NumPy converts), NaT for an
   * invalid Date.
   * @throws TypeError for timedelta or generic types
   */
  fromDate(date: Date): bigint {
    if (this.kind !== "datetime")
      throw new TypeError(`${this.name} values are durations, not instants`);
    const ms = date.getTime();
    if (Number.isNaN(ms)) return NAT;
    const scale = BigInt(this.scaleFactor);
    if (this.unit === "Y") return floorDiv(BigInt(date.getUTCFullYear() - 1970), scale);
    if (this.unit === "M") {
      return floorDiv(BigInt((date.getUTCFullYear() - 1970) * 12 + date.getUTCMonth()), scale);
    }
    if (this.unit === "generic")
      throw new TypeError("A generic datetime64 has no unit to convert with");
    const per = MS_PER_UNIT[this.unit];
    if (per !== undefined) return floorDiv(BigInt(ms), per * scale);
    return floorDiv(BigInt(ms) * (UNITS_PER_MS[this.unit] as bigint), scale);
  }

  /**
   * The duration of a timedelta64 value in milliseconds (NaN for NaT).
   * @throws TypeError for datetimes and for calendar (Y, M) or generic units, which have no fixed length
   */
  toMilliseconds(value: bigint): number {
    if (this.kind !== "timedelta")
      throw new TypeError(`${this.name} values are instants; use toDate()`);
    if (value === NAT) return Number.NaN;
    const count = value * BigInt(this.scaleFactor);
    const per = MS_PER_UNIT[this.unit];
    if (per !== undefined) return Number(count * per);
    const below = UNITS_PER_MS[this.unit];
    if (below !== undefined) return Number(count) / Number(below);
    throw new TypeError(`${this.name} has no fixed length in milliseconds`);
  }
}

/** The `numpy.datetime64` type of a unit and scale factor (`datetime64("ns")`, `datetime64("s", 10)`). */
export function datetime64(unit: DateTimeUnit, scaleFactor = 1): DateTimeType {
  return new DateTimeType("datetime", parseDateTimeUnit(unit, "datetime64"), scaleFactor);
}

/** The `numpy.timedelta64` type of a unit and scale factor. */
export function timedelta64(unit: DateTimeUnit, scaleFactor = 1): DateTimeType {
  return new DateTimeType("timedelta", parseDateTimeUnit(unit, "timedelta64"), scaleFactor);
}

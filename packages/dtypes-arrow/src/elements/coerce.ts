import { halfToNumber, isTypedArray, numberToHalf } from "@z/ndarray";
import { ArrowValueError } from "../errors.js";
import { type ArrowField, type ArrowTimeUnit, describeArrowType } from "../field/model.js";
import { formatDecimal, parseDecimal } from "./decimal.js";

/** A union element: which member (its type id) and the member's value. */
export interface UnionElement {
  /** The type id of the member (one of the union's `typeIds`). */
  typeId: number;
  /** The member's value. */
  value: unknown;
}

/** A day-time interval element. */
export interface DayTimeInterval {
  /** Days (int32). */
  days: number;
  /** Milliseconds (int32). */
  milliseconds: number;
}

/** A month-day-nanosecond interval element. */
export interface MonthDayNanoInterval {
  /** Months (int32). */
  months: number;
  /** Days (int32). */
  days: number;
  /** Nanoseconds (int64). */
  nanoseconds: bigint;
}

const INT_RANGES: Record<string, [bigint, bigint]> = {
  "8s": [-(2n ** 7n), 2n ** 7n - 1n],
  "16s": [-(2n ** 15n), 2n ** 15n - 1n],
  "32s": [-(2n ** 31n), 2n ** 31n - 1n],
  "64s": [-(2n ** 63n), 2n ** 63n - 1n],
  "8u": [0n, 2n ** 8n - 1n],
  "16u": [0n, 2n ** 16n - 1n],
  "32u": [0n, 2n ** 32n - 1n],
  "64u": [0n, 2n ** 64n - 1n],
};

const MS_PER_UNIT: Record<ArrowTimeUnit, [bigint, bigint]> = {
  // [multiply, divide]: value in the unit = ms * multiply / divide
  SECOND: [1n, 1000n],
  MILLISECOND: [1n, 1n],
  MICROSECOND: [1000n, 1n],
  NANOSECOND: [1_000_000n, 1n],
};

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "bigint") return `the bigint ${value}n`;
  if (typeof value === "number" || typeof value === "boolean") return `${typeof value} ${value}`;
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return `a ${(value as object).constructor?.name ?? "object"}`;
}

function wrong(path: string, value: unknown, field: ArrowField, wanted: string): never {
  throw new ArrowValueError(
    `${path} is ${describe(value)}; the Arrow field ${JSON.stringify(field.name)} (${describeArrowType(field)}) wants ${wanted}`,
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value))
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}

function toBigInt(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  return undefined;
}

const NUMBER_RANGES: Record<string, [number, number]> = {
  "8s": [-128, 127],
  "16s": [-32768, 32767],
  "32s": [-2147483648, 2147483647],
  "8u": [0, 255],
  "16u": [0, 65535],
  "32u": [0, 4294967295],
};

function integer(
  value: unknown,
  bits: number,
  signed: boolean,
  path: string,
  field: ArrowField,
): number | bigint {
  if (typeof value === "number" && bits <= 32) {
    // The common case, without a bigint per element.
    const [lo, hi] = NUMBER_RANGES[`${bits}${signed ? "s" : "u"}`];
    if (Number.isInteger(value) && value >= lo && value <= hi) return value;
  }
  const big = toBigInt(value);
  const [min, max] = INT_RANGES[`${bits}${signed ? "s" : "u"}`];
  if (big === undefined || big < min || big > max) {
    wrong(
      path,
      value,
      field,
      `an integer from ${min} to ${max}${bits === 64 ? " (a bigint, or a number that is an exact integer)" : ""}`,
    );
  }
  return bits === 64 ? big : Number(big);
}

function fromDate(
  date: Date,
  unit: ArrowTimeUnit | "DAY",
  path: string,
  field: ArrowField,
): bigint {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) wrong(path, date, field, "a valid date");
  if (unit === "DAY") {
    if (ms % 86_400_000 !== 0)
      wrong(path, date, field, "a date at midnight UTC (a whole number of days)");
    return BigInt(ms / 86_400_000);
  }
  const [mul, div] = MS_PER_UNIT[unit];
  const scaled = BigInt(ms) * mul;
  if (scaled % div !== 0n)
    wrong(path, date, field, `a date that is a whole number of ${unit.toLowerCase()}s`);
  return scaled / div;
}

function fits(field: ArrowField, value: unknown): boolean {
  try {
    coerceElement(field, value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a plain array is one element of a list or map field rather than a block of
 * elements. It is one element when it is a valid element and either holds arrays (`arr.set`
 * would take nested arrays as more dimensions) or is not a valid block; `[]` is an empty list.
 * When both readings are valid (`[null, null]`), it is a block: pass `{data, shape}` to say so
 * explicitly either way.
 */
function isOneListElement(field: ArrowField, value: unknown[]): boolean {
  if (value.length === 0) return true;
  if (!fits(field, value)) return false;
  if (value.some((item) => Array.isArray(item))) return true;
  return !value.every((item) => fits(field, item));
}

/**
 * Whether a value passed to `arr.set` is one element of the field (broadcast to the
 * selection) rather than a block of elements: bytes for binary types, a TypedArray or an array
 * that is one list for list types (see `isOneListElement`), a plain object for structs, unions,
 * intervals and maps (but not `{data, shape}`), a Map or an array of pairs for maps, a Date.
 */
export function isArrowScalar(field: ArrowField, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  if (value instanceof Date) return true;
  if (field.dictionary) return isArrowScalar({ ...field, dictionary: undefined }, value);
  switch (field.type.name) {
    case "runendencoded":
      return isArrowScalar(field.children[1], value);
    case "binary":
    case "largebinary":
    case "binaryview":
    case "fixedsizebinary":
      return asBytes(value) !== undefined;
    case "list":
    case "largelist":
    case "listview":
    case "largelistview":
    case "fixedsizelist":
      if (isTypedArray(value)) return true;
      if (Array.isArray(value)) return isOneListElement(field, value);
      break;
    case "map":
      if (value instanceof Map) return true;
      if (Array.isArray(value)) return isOneListElement(field, value);
      break;
  }
  return isPlainObject(value) && !("data" in value && "shape" in value);
}

/**
 * Checks a value against a field and returns it in the element form this package uses (the
 * form reads give back): numbers for integers up to 32 bits, bigints for 64-bit integers and
 * 64-bit temporal types, numbers rounded to the float's precision, strings, Uint8Arrays, decimal
 * strings with exactly `scale` fractional digits, arrays for lists, objects for structs,
 * `[key, value]` pairs for maps, `{typeId, value}` for unions; `null` for nulls. Dates may be
 * given as `Date` objects; maps as `Map`s or, with string keys, plain objects.
 * @param path names the value in errors
 * @throws ArrowValueError naming where in the value the problem is
 */
export function coerceElement(field: ArrowField, value: unknown, path = "element"): unknown {
  if (value === null || value === undefined) {
    if (field.nullable || field.type.name === "null") return null;
    wrong(path, value, field, "a value (the field is not nullable)");
  }
  const t = field.type;
  switch (t.name) {
    case "null":
      return wrong(path, value, field, "null");
    case "bool":
      if (typeof value !== "boolean") wrong(path, value, field, "true or false");
      return value;
    case "int":
      return integer(value, t.bitWidth, t.isSigned, path, field);
    case "floatingpoint": {
      const n = typeof value === "bigint" ? Number(value) : value;
      if (typeof n !== "number") wrong(path, value, field, "a number");
      if (t.precision === "HALF") return halfToNumber(numberToHalf(n));
      return t.precision === "SINGLE" ? Math.fround(n) : n;
    }
    case "runendencoded":
      // The elements are the values' elements; runs are a layout detail.
      return coerceElement(field.children[1], value, path);
    case "utf8":
    case "largeutf8":
    case "utf8view":
      if (typeof value !== "string") wrong(path, value, field, "a string");
      return value;
    case "binary":
    case "largebinary":
    case "binaryview":
    case "fixedsizebinary": {
      const bytes = asBytes(value);
      if (!bytes) wrong(path, value, field, "a Uint8Array");
      if (t.name === "fixedsizebinary" && bytes.length !== t.byteWidth) {
        wrong(path, value, field, `exactly ${t.byteWidth} bytes, not ${bytes.length}`);
      }
      return bytes;
    }
    case "decimal": {
      let unscaled: bigint | string;
      if (typeof value === "string") unscaled = parseDecimal(value, t.precision, t.scale);
      else if (typeof value === "number" && Number.isFinite(value))
        unscaled = parseDecimal(String(value), t.precision, t.scale);
      else if (typeof value === "bigint")
        unscaled = parseDecimal(value.toString(), t.precision, t.scale);
      else return wrong(path, value, field, 'a decimal string such as "-12.34"');
      if (typeof unscaled === "string")
        wrong(path, value, field, `a decimal that fits: it ${unscaled}`);
      return formatDecimal(unscaled, t.scale);
    }
    case "date":
      if (value instanceof Date) {
        const v = fromDate(value, t.unit === "DAY" ? "DAY" : "MILLISECOND", path, field);
        return t.unit === "DAY"
          ? integer(v, 32, true, path, field)
          : integer(v, 64, true, path, field);
      }
      return integer(value, t.unit === "DAY" ? 32 : 64, true, path, field);
    case "time":
      return integer(value, t.bitWidth, true, path, field);
    case "timestamp":
      if (value instanceof Date) return fromDate(value, t.unit, path, field);
      return integer(value, 64, true, path, field);
    case "duration":
      return integer(value, 64, true, path, field);
    case "interval":
      return coerceInterval(field, value, path);
    case "list":
    case "largelist":
    case "listview":
    case "largelistview":
    case "fixedsizelist": {
      if (!Array.isArray(value) && !isTypedArray(value)) wrong(path, value, field, "an array");
      const items = value as ArrayLike<unknown>;
      if (t.name === "fixedsizelist" && items.length !== t.listSize) {
        wrong(path, value, field, `an array of exactly ${t.listSize} items`);
      }
      const child = field.children[0];
      const out: unknown[] = new Array(items.length);
      for (let i = 0; i < items.length; i++)
        out[i] = coerceElement(child, items[i], `${path}[${i}]`);
      return out;
    }
    case "struct": {
      if (!isPlainObject(value)) wrong(path, value, field, "an object with its members");
      const out: Record<string, unknown> = {};
      for (const child of field.children)
        out[child.name] = coerceElement(child, value[child.name], `${path}.${child.name}`);
      for (const key of Object.keys(value)) {
        if (!(key in out))
          wrong(
            `${path}.${key}`,
            value[key],
            field,
            `only the members ${field.children.map((c) => c.name).join(", ")}`,
          );
      }
      return out;
    }
    case "map":
      return coerceMap(field, value, path);
    case "union": {
      if (!isPlainObject(value) || !("typeId" in value))
        wrong(path, value, field, "{typeId, value}");
      const index = t.typeIds.indexOf(value.typeId as number);
      if (index < 0)
        wrong(`${path}.typeId`, value.typeId, field, `one of the type ids ${t.typeIds.join(", ")}`);
      const member = coerceElement(field.children[index], value.value, `${path}.value`);
      // A null member reads back as a null element (which member held it is not kept).
      return member === null ? null : { typeId: t.typeIds[index], value: member };
    }
  }
}

function coerceInterval(field: ArrowField, value: unknown, path: string): unknown {
  const t = field.type as { unit: "YEAR_MONTH" | "DAY_TIME" | "MONTH_DAY_NANO" };
  if (t.unit === "YEAR_MONTH") return integer(value, 32, true, path, field);
  if (!isPlainObject(value)) {
    return wrong(
      path,
      value,
      field,
      t.unit === "DAY_TIME" ? "{days, milliseconds}" : "{months, days, nanoseconds}",
    );
  }
  if (t.unit === "DAY_TIME") {
    return {
      days: integer(value.days ?? 0, 32, true, `${path}.days`, field),
      milliseconds: integer(value.milliseconds ?? 0, 32, true, `${path}.milliseconds`, field),
    };
  }
  return {
    months: integer(value.months ?? 0, 32, true, `${path}.months`, field),
    days: integer(value.days ?? 0, 32, true, `${path}.days`, field),
    nanoseconds: integer(value.nanoseconds ?? 0n, 64, true, `${path}.nanoseconds`, field),
  };
}

function coerceMap(field: ArrowField, value: unknown, path: string): [unknown, unknown][] {
  const entries = field.children[0];
  const [keyField, valueField] = entries.children;
  let pairs: unknown[];
  if (value instanceof Map) pairs = [...value.entries()];
  else if (Array.isArray(value)) pairs = value;
  else if (
    isPlainObject(value) &&
    (keyField.type.name === "utf8" || keyField.type.name === "largeutf8")
  ) {
    pairs = Object.entries(value);
  } else {
    return wrong(path, value, field, "an array of [key, value] pairs (or a Map)");
  }
  return pairs.map((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2)
      wrong(`${path}[${i}]`, pair, field, "a [key, value] pair");
    return [
      coerceElement(keyField, pair[0], `${path}[${i}][0]`),
      coerceElement(valueField, pair[1], `${path}[${i}][1]`),
    ];
  });
}

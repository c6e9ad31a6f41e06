import { nameErrorClass, ZARR_ERROR_BRAND } from "@z/errors";
import { isTypedArray } from "@z/ndarray";
import { describeValue } from "../describe.js";
import { JsonFloat } from "../dtype/json-element.js";
import { EncodeError } from "../errors.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    PythonJsonSyntaxError: PythonJsonSyntaxError;
  }
}

/** The options of Python's `json.dumps` that change its output, as numcodecs' json2 passes them. */
export interface PythonJsonStyle {
  /** `indent`: null for one line; a number of spaces, a string, or true (one space) per level. */
  indent: number | string | boolean | null;
  /** `[item_separator, key_separator]`. */
  separators: [string, string];
  /** Sort object keys. */
  sortKeys: boolean;
  /** Escape every character outside printable ASCII as `\uXXXX`. */
  ensureAscii: boolean;
  /** Write NaN and infinities (as `NaN`, `Infinity`, `-Infinity`) rather than refuse them. */
  allowNan: boolean;
}

/**
 * Python's `repr(float)`: the shortest digits that round-trip (the same digits JavaScript
 * picks), in fixed notation for decimal exponents -4 to 15 (`1.0`, `0.0001`), otherwise in
 * exponent notation with at least two exponent digits (`1e-05`, `1.5e+16`).
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "Infinity";
  if (value === Number.NEGATIVE_INFINITY) return "-Infinity";
  if (value === 0) return Object.is(value, -0) ? "-0.0" : "0.0";
  const [mantissa, exponentText] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  const sign = mantissa.startsWith("-") ? "-" : "";
  const digits = mantissa.replace("-", "").replace(".", "");
  if (exponent < -4 || exponent >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  if (exponent >= 0) {
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
    return `${sign}${whole}.${digits.slice(exponent + 1) || "0"}`;
  }
  return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
}

function quote(text: string, ensureAscii: boolean): string {
  // JSON.stringify escapes exactly what Python's json escapes without ensure_ascii (", \,
  // control characters, lone surrogates); ensure_ascii also escapes everything from U+007F up.
  const quoted = JSON.stringify(text);
  if (!ensureAscii) return quoted;
  return quoted.replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function compareCodePoints(a: string, b: string): number {
  // Python sorts str by code point; UTF-16 order differs only above U+FFFF vs U+E000-U+FFFF.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * Serialises a value exactly as Python's `json.dumps(value, **style)` does, so that json2
 * chunks we write are byte-identical to numcodecs'. Integral numbers up to 2^53 are written
 * as integers (Python ints); other numbers, and {@link JsonFloat}s, as Python floats.
 * @throws EncodeError for values JSON cannot hold (bytes, functions, NaN without allowNan)
 */
export function pythonJsonDumps(value: unknown, style: PythonJsonStyle): string {
  const indent =
    style.indent === null
      ? null
      : typeof style.indent === "string"
        ? style.indent
        : " ".repeat(Number(style.indent));
  const [itemSeparator, keySeparator] = style.separators;
  const parts: string[] = [];
  const number = (n: number, asFloat: boolean): string => {
    if (!Number.isFinite(n) && !style.allowNan)
      throw new EncodeError(`json2: ${n} is not allowed (allow_nan is false)`);
    return !asFloat && Number.isSafeInteger(n) && !Object.is(n, -0)
      ? String(n)
      : pythonFloatRepr(n);
  };
  // Lists and objects being written, to refuse a circular value (as check_circular does)
  // instead of recursing until the stack overflows.
  const open = new Set<unknown>();
  const enter = (v: unknown): void => {
    if (open.has(v))
      throw new EncodeError("json2: the value refers to itself (a circular reference)");
    open.add(v);
  };
  const write = (v: unknown, level: number): void => {
    if (v === null || v === undefined) parts.push("null");
    else if (typeof v === "string") parts.push(quote(v, style.ensureAscii));
    else if (typeof v === "number") parts.push(number(v, false));
    else if (typeof v === "boolean") parts.push(v ? "true" : "false");
    else if (typeof v === "bigint") parts.push(v.toString());
    else if (v instanceof JsonFloat) parts.push(number(v.value, true));
    else if (Array.isArray(v) || (isTypedArray(v) && !(v instanceof Uint8Array))) {
      enter(v);
      writeList(Array.from(v as ArrayLike<unknown>), level);
      open.delete(v);
    } else if (typeof v === "object" && !(v instanceof Uint8Array) && !ArrayBuffer.isView(v)) {
      enter(v);
      const entries = Object.entries(v as Record<string, unknown>);
      if (style.sortKeys) entries.sort(([a], [b]) => compareCodePoints(a, b));
      writeContainer("{", "}", entries, level, ([key, item], l) => {
        parts.push(quote(key, style.ensureAscii), keySeparator);
        write(item, l);
      });
      open.delete(v);
    } else {
      throw new EncodeError(`json2: ${describeValue(v)} cannot be written as JSON`);
    }
  };
  const writeList = (items: unknown[], level: number): void =>
    writeContainer("[", "]", items, level, write);
  function writeContainer<T>(
    opening: string,
    close: string,
    items: T[],
    level: number,
    each: (item: T, level: number) => void,
  ): void {
    if (items.length === 0) {
      parts.push(opening + close);
      return;
    }
    parts.push(opening);
    const inner = level + 1;
    const newline = indent === null ? "" : `\n${indent.repeat(inner)}`;
    parts.push(newline);
    items.forEach((item, i) => {
      if (i > 0) parts.push(itemSeparator + newline);
      each(item, inner);
    });
    if (indent !== null) parts.push(`\n${indent.repeat(level)}`);
    parts.push(close);
  }
  write(value, 0);
  return parts.join("");
}

/** Options of {@link parsePythonJson}. */
export interface PythonJsonParseOptions {
  /**
   * Return integral numbers written in float form (`1.0`, `2e3`) as {@link JsonFloat}, so that
   * writing them again gives the same text. Off by default: plain numbers are easier to use.
   */
  markFloats?: boolean;
  /** The deepest nesting accepted (default 1000); deeper input is refused, not a stack overflow. */
  maxDepth?: number;
}

/**
 * JSON text that does not parse, with the position of the problem. A `SyntaxError`, branded as
 * an `@z` error (`isZarrError(e, "PythonJsonSyntaxError")`).
 */
export class PythonJsonSyntaxError extends SyntaxError {
  static {
    nameErrorClass(PythonJsonSyntaxError, "PythonJsonSyntaxError");
  }
  /** The `@z` error brand, which `isZarrError` checks. */
  readonly [ZARR_ERROR_BRAND] = true as const;
}

/**
 * Parses JSON as Python's `json.loads` accepts it: standard JSON plus `NaN`, `Infinity` and
 * `-Infinity`. Uses `JSON.parse` when it can (much faster) and its own bounded parser when the
 * text has those literals or floats must be marked.
 * @throws PythonJsonSyntaxError
 */
export function parsePythonJson(text: string, options: PythonJsonParseOptions = {}): unknown {
  if (!options.markFloats) {
    try {
      return JSON.parse(text);
    } catch (error) {
      if (!(error instanceof SyntaxError) && !(error instanceof RangeError)) throw error;
    }
  }
  return new Parser(text, options.markFloats ?? false, options.maxDepth ?? 1000).document();
}

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

class Parser {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly markFloats: boolean,
    private readonly maxDepth: number,
  ) {}

  document(): unknown {
    const value = this.value(0);
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail("unexpected text after the JSON value");
    return value;
  }

  private fail(what: string): never {
    throw new PythonJsonSyntaxError(`${what} at position ${this.pos}`);
  }

  private skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      this.pos++;
    }
  }

  private literal(word: string, value: unknown): unknown {
    if (!this.text.startsWith(word, this.pos)) this.fail("invalid literal");
    this.pos += word.length;
    return value;
  }

  private value(depth: number): unknown {
    if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`);
    this.skipSpace();
    const c = this.text[this.pos];
    switch (c) {
      case "[":
        return this.list(depth);
      case "{":
        return this.object(depth);
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case "N":
        return this.literal("NaN", Number.NaN);
      case "I":
        return this.literal("Infinity", Number.POSITIVE_INFINITY);
      case undefined:
        return this.fail("unexpected end of the text");
    }
    if (c === "-" && this.text.startsWith("-Infinity", this.pos))
      return this.literal("-Infinity", Number.NEGATIVE_INFINITY);
    return this.number();
  }

  private number(): unknown {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail("invalid value");
    this.pos += match[0].length;
    const value = Number(match[0]);
    const floatForm = match[1] !== undefined || match[2] !== undefined;
    return this.markFloats && floatForm && Number.isSafeInteger(value)
      ? new JsonFloat(value)
      : value;
  }

  private string(): string {
    const t = this.text;
    const start = this.pos;
    this.pos++;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (Number.isNaN(c)) this.fail("unterminated string");
      if (c === 0x22) break;
      if (c === 0x5c) this.pos++;
      else if (c < 0x20) this.fail("control character in a string");
      this.pos++;
    }
    this.pos++;
    try {
      return JSON.parse(t.slice(start, this.pos));
    } catch {
      return this.fail("invalid string escape");
    }
  }

  private list(depth: number): unknown[] {
    this.pos++;
    const out: unknown[] = [];
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === "]") return out;
      if (c !== ",") this.fail('expected "," or "]"');
    }
  }

  private object(depth: number): Record<string, unknown> {
    this.pos++;
    const out: Record<string, unknown> = {};
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail("expected a string key");
      const key = this.string();
      this.skipSpace();
      if (this.text[this.pos++] !== ":") this.fail('expected ":"');
      // defineProperty, so that a "__proto__" key is data, not the object's prototype.
      Object.defineProperty(out, key, {
        value: this.value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === "}") return out;
      if (c !== ",") this.fail('expected "," or "}"');
    }
  }
}

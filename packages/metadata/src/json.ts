import { MetadataError, MetadataLimitError } from "./errors.js";
import { checkLimit } from "./limit-check.js";
import { metadataLimits } from "./limits.js";

/** A JSON value as metadata holds it; integers beyond 2^53 in magnitude parse as `bigint`. */
export type JsonValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Parses a JSON document. Unlike `JSON.parse`, integers that a double cannot hold exactly
 * (such as a uint64 fill value of 2^64-1) come back as `bigint`, so no digit is lost.
 * Documents larger than `maxDocumentBytes` or nested deeper than `maxJsonDepth` (see
 * {@link metadataLimits}) are refused before they can exhaust memory or the stack.
 * @param where named in the error message, e.g. the store key of the document
 * @throws MetadataError with the position of the first syntax error; MetadataLimitError past
 *   a limit
 */
export function parseJson(input: string | Uint8Array, where = "JSON document"): JsonValue {
  // A string's length counts UTF-16 units, at most its UTF-8 size: a fair bound before encoding.
  checkLimit("maxDocumentBytes", input.length, `The size of ${where}`);
  let text: string;
  if (typeof input === "string") text = input;
  else {
    try {
      text = decoder.decode(input);
    } catch {
      throw new MetadataError(`${where} is not valid UTF-8`);
    }
  }
  return new JsonParser(text, where).parseDocument();
}

class JsonParser {
  private pos = 0;
  private depth = 0;
  private readonly maxDepth = metadataLimits().maxJsonDepth;
  constructor(
    private readonly text: string,
    private readonly where: string,
  ) {}

  parseDocument(): JsonValue {
    if (this.text.charCodeAt(0) === 0xfeff) this.pos = 1;
    const value = this.parseValue();
    this.skipSpace();
    if (this.pos < this.text.length) this.fail("unexpected text after the JSON value");
    return value;
  }

  /** "line L, column C" of the current position. */
  private position(): string {
    const before = this.text.slice(0, this.pos);
    const line = before.split("\n").length;
    return `line ${line}, column ${this.pos - before.lastIndexOf("\n")}`;
  }

  private fail(message: string): never {
    throw new MetadataError(`Malformed JSON in ${this.where} at ${this.position()}: ${message}`);
  }

  private skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.pos++;
      else break;
    }
  }

  /** Parses a list or an object one level deeper, refusing to go past the depth limit. */
  private nested<T>(parse: () => T): T {
    if (++this.depth > this.maxDepth) {
      throw new MetadataLimitError(
        `${this.where} nests lists and objects more than ${this.maxDepth} levels deep (at ${this.position()}; maxJsonDepth, raise it with setMetadataLimits() if this data is genuine)`,
        "maxJsonDepth",
        this.maxDepth,
        this.depth,
      );
    }
    const value = parse();
    this.depth--;
    return value;
  }

  private parseValue(): JsonValue {
    this.skipSpace();
    const c = this.text[this.pos];
    if (c === "{") return this.nested(() => this.parseObject());
    if (c === "[") return this.nested(() => this.parseArray());
    if (c === '"') return this.parseString();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.parseNumber();
    // Python's json module writes these bare words for non-finite floats.
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
      ["NaN", Number.NaN],
      ["Infinity", Number.POSITIVE_INFINITY],
      ["-Infinity", Number.NEGATIVE_INFINITY],
    ] as const) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return value;
      }
    }
    if (c === undefined) this.fail("unexpected end of input");
    this.fail(`unexpected character ${JSON.stringify(c)}`);
  }

  private parseObject(): JsonObject {
    this.pos++;
    const out: JsonObject = {};
    this.skipSpace();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.pos] !== '"') this.fail("expected a string key");
      const key = this.parseString();
      this.skipSpace();
      if (this.text[this.pos] !== ":") this.fail("expected ':'");
      this.pos++;
      Object.defineProperty(out, key, {
        value: this.parseValue(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === "}") return out;
      if (c !== ",") this.fail("expected ',' or '}'");
    }
  }

  private parseArray(): JsonValue[] {
    this.pos++;
    const out: JsonValue[] = [];
    this.skipSpace();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return out;
    }
    for (;;) {
      out.push(this.parseValue());
      this.skipSpace();
      const c = this.text[this.pos++];
      if (c === "]") return out;
      if (c !== ",") this.fail("expected ',' or ']'");
    }
  }

  private parseString(): string {
    const start = this.pos;
    const t = this.text;
    let i = start + 1;
    let simple = true;
    for (; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 0x22) break;
      if (c === 0x5c) {
        simple = false;
        i++;
      } else if (c < 0x20) {
        this.pos = i;
        this.fail("control character in string");
      }
    }
    if (i >= t.length) this.fail("unterminated string");
    this.pos = i + 1;
    const raw = t.slice(start, i + 1);
    if (simple) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      this.pos = start;
      this.fail("invalid escape in string");
    }
  }

  private parseNumber(): number | bigint {
    const match = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(
      this.text.slice(this.pos, this.pos + 400),
    );
    if (match === null) {
      if (this.text.startsWith("-Infinity", this.pos)) {
        this.pos += 9;
        return Number.NEGATIVE_INFINITY;
      }
      this.fail("invalid number");
    }
    this.pos += match[0].length;
    const value = Number(match[0]);
    if (match[1] === undefined && match[2] === undefined && !Number.isSafeInteger(value)) {
      return BigInt(match[0]);
    }
    return value;
  }
}

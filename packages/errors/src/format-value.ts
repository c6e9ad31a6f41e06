/** Options of {@link formatValue}. */
export interface FormatValueOptions {
  /** The longest text returned; longer renderings are cut and end with `…` (default 120). */
  maxLength?: number;
  /**
   * How a `bigint` is written: `"digits"` (default) as the integer appears in a JSON document,
   * `"suffix"` as a JavaScript literal (`10n`), for values users pass where a number is wanted.
   */
  bigint?: "digits" | "suffix";
}

/** Nesting levels rendered before an inner value is written as `[…]` or `{…}`. */
const MAX_FORMAT_DEPTH = 6;

class Budget {
  text = "";
  constructor(readonly max: number) {}
  get full(): boolean {
    return this.text.length > this.max;
  }
  add(part: string): void {
    if (!this.full) this.text += part.length > this.max ? part.slice(0, this.max + 1) : part;
  }
}

/**
 * A short rendering of any value for an error message, JSON-like (`[1,2]`, `{"a":"b"}`,
 * `"text"`). Unlike `JSON.stringify` it never throws and does bounded work whatever it is
 * given: bigints, NaN and ±Infinity, `undefined`, functions, symbols, class instances
 * (`Date`, `Map`, typed arrays by name), cycles (`[circular]`), deep nesting (`[…]` past a few
 * levels) and huge strings, lists or objects (cut at `maxLength`, ending with `…`).
 */
export function formatValue(value: unknown, options: FormatValueOptions = {}): string {
  const budget = new Budget(options.maxLength ?? 120);
  try {
    render(value, budget, options.bigint ?? "digits", 0, []);
  } catch {
    // A getter or proxy trap that throws: say so rather than fail while reporting an error.
    budget.add(" [unprintable]");
  }
  const { text, max } = budget;
  return text.length > max ? `${text.slice(0, Math.max(0, max - 1))}…` : text;
}

function render(
  value: unknown,
  out: Budget,
  bigint: "digits" | "suffix",
  depth: number,
  ancestors: object[],
): void {
  switch (typeof value) {
    case "string":
      out.add(JSON.stringify(value.length > out.max ? value.slice(0, out.max + 1) : value));
      return;
    case "number":
    case "boolean":
      out.add(String(value));
      return;
    case "bigint":
      out.add(bigint === "suffix" ? `${value}n` : value.toString());
      return;
    case "undefined":
      out.add("undefined");
      return;
    case "symbol":
      out.add(value.toString());
      return;
    case "function":
      out.add(`[function ${value.name || "anonymous"}]`);
      return;
  }
  if (value === null) {
    out.add("null");
    return;
  }
  const object = value as object;
  if (ancestors.includes(object)) {
    out.add("[circular]");
    return;
  }
  const isArray = Array.isArray(object);
  const proto = Object.getPrototypeOf(object);
  if (!isArray && proto !== Object.prototype && proto !== null) {
    const name = (proto?.constructor as { name?: string } | undefined)?.name || "object";
    const length = ArrayBuffer.isView(object) ? `(${(object as Uint8Array).length})` : "";
    out.add(`[${name}${length}]`);
    return;
  }
  if (depth >= MAX_FORMAT_DEPTH) {
    out.add(isArray ? "[…]" : "{…}");
    return;
  }
  ancestors.push(object);
  if (isArray) {
    const list = object as unknown[];
    out.add("[");
    for (let i = 0; i < list.length && !out.full; i++) {
      if (i > 0) out.add(",");
      render(list[i], out, bigint, depth + 1, ancestors);
    }
    out.add("]");
  } else {
    out.add("{");
    let first = true;
    for (const key in object) {
      if (out.full) break;
      if (!Object.hasOwn(object, key)) continue;
      if (!first) out.add(",");
      first = false;
      out.add(`${JSON.stringify(key.length > out.max ? key.slice(0, out.max + 1) : key)}:`);
      render((object as Record<string, unknown>)[key], out, bigint, depth + 1, ancestors);
    }
    out.add("}");
  }
  ancestors.pop();
}

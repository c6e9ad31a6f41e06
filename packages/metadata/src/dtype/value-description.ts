// The value description: private to the @z packages. value-errors.ts holds the public side, which the
// package entry re-exports whole.
/**
 * A short, safe description of a value for error messages: strings quoted (and cut at 40
 * characters), bigints with their `n`, objects by class. Never throws (symbols, objects
 * without a prototype).
 */
export function valueDescription(value: unknown): string {
  switch (typeof value) {
    case "string":
      return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case "number":
      return Object.is(value, -0) ? "the number -0" : `the number ${value}`;
    case "bigint":
      return `the bigint ${value}n`;
    case "boolean":
      return String(value);
    case "undefined":
      return "undefined";
    case "symbol":
      return `a symbol (${value.description ?? ""})`;
    case "function":
      return "a function";
    default: {
      if (value === null) return "null";
      if (Array.isArray(value)) return `an array of ${value.length} items`;
      const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      return typeof name === "string" && name !== "Object" ? `a ${name}` : "an object";
    }
  }
}

/**
 * JSON indented by two spaces, with arrays of numbers, strings and nulls kept on one line
 * (`"shape": [100, 200]`), so `info --json` and `tree --json` stay readable and any JSON
 * parser reads them.
 */
export function prettyJson(value: unknown, indent = ""): string {
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) {
      return `[${value.map((item) => JSON.stringify(item ?? null)).join(", ")}]`;
    }
    const inner = `${indent}  `;
    return `[\n${value.map((item) => inner + prettyJson(item, inner)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return "{}";
    const inner = `${indent}  `;
    const lines = entries.map(
      ([key, item]) => `${inner}${JSON.stringify(key)}: ${prettyJson(item, inner)}`,
    );
    return `{\n${lines.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value) ?? "null";
}

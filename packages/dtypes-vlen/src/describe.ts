/** A short description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value instanceof Uint8Array) return `a Uint8Array of ${value.length} bytes`;
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object" && value !== null)
    return `a ${value.constructor?.name ?? "object"}`;
  return `${typeof value} ${String(value)}`;
}

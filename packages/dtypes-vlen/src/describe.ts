/** A short description of a value for error messages. */
export function describeValue(value: unknown): string {
  if (value instanceof Uint8Array) return `a Uint8Array of ${value.length} bytes`;
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === "object" && value !== null)
    return `a ${value.constructor?.name ?? "object"}`;
  return `${typeof value} ${String(value)}`;
}

/**
 * A JSON value (from metadata) as text for an error message: integers beyond 2^53, which the
 * metadata parser gives as bigints and JSON.stringify refuses, as their digits; long text cut.
 */
export function showJson(value: unknown): string {
  const text =
    typeof value === "bigint"
      ? value.toString()
      : (JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v)) ??
        String(value));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

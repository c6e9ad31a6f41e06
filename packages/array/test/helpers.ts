/** Parses a stored JSON document (test helper). */
export function decodeJsonText(bytes: Uint8Array | undefined): Record<string, unknown> {
  if (!bytes) throw new Error("document missing");
  return JSON.parse(new TextDecoder().decode(bytes));
}

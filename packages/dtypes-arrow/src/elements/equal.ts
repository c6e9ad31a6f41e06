/**
 * Whether two elements are equal, deeply: NaN equals NaN, bytes compare by content, arrays
 * item by item, objects member by member.
 */
export function elementsEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length)
      return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!(Array.isArray(a) && Array.isArray(b)) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!elementsEqual(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const key of ka) {
    if (!elementsEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}

/**
 * A string that identifies an element up to {@link elementsEqual} (-0 and 0 apart), used to
 * find repeated values when building a dictionary.
 */
export function elementKey(value: unknown): string {
  switch (typeof value) {
    case "string":
      return `s${value.length}:${value}`;
    case "number":
      return Object.is(value, -0) ? "n-0" : `n${value}`;
    case "bigint":
      return `i${value}`;
    case "boolean":
      return value ? "T" : "F";
    case "undefined":
      return "N";
  }
  if (value === null) return "N";
  if (value instanceof Uint8Array)
    return `b${value.length}:${Array.prototype.join.call(value, ",")}`;
  if (Array.isArray(value)) return `[${value.map(elementKey).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${elementKey(v)}`).join(",")}}`;
}

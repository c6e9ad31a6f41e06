import type { ByteRange } from "@z/store-core";

/**
 * The `Range` header value for a range that selects at least one byte: `bytes=a-b`,
 * `bytes=a-` or `bytes=-n`. Empty ranges (`length: 0`, `suffix: 0`) have no header form.
 */
export function rangeHeader(range: ByteRange): string {
  if ("suffix" in range) return `bytes=-${range.suffix}`;
  if ("length" in range) return `bytes=${range.offset}-${range.offset + range.length - 1}`;
  return `bytes=${range.offset}-`;
}

/** Whether a range selects no byte whatever the value (no request can express it). */
export function isEmptyRange(range: ByteRange): boolean {
  return "suffix" in range ? range.suffix === 0 : "length" in range && range.length === 0;
}

/** A parsed `Content-Range` header: `bytes a-b/total` or `bytes *\/total` (`total` may be `*`). */
export interface ContentRange {
  /** First byte sent; undefined for `bytes *\/total`. */
  start?: number;
  /** Last byte sent (inclusive). */
  end?: number;
  /** The whole value's size, when the server said. */
  total?: number;
}

/** Parses a `Content-Range` header; undefined when absent or malformed. */
export function parseContentRange(header: string | null): ContentRange | undefined {
  if (header === null) return undefined;
  const match = /^\s*bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)\s*$/i.exec(header);
  if (!match) return undefined;
  const total = match[3] === "*" ? undefined : Number(match[3]);
  if (match[1] === undefined) return { total };
  const start = Number(match[1]);
  const end = Number(match[2]);
  if (end < start) return undefined;
  return { start, end, total };
}

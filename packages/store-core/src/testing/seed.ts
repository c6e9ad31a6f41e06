import type { ByteRange } from "../range.js";
import { allByteValues, patternBytes } from "./helpers.js";

const text = (s: string) => new TextEncoder().encode(s);

/**
 * A small hierarchy shaped like a Zarr store, with the sort-order traps a directory walk can
 * fall into (`c-`, `c.d/` and `c/` sort as `c-` < `c.d/` < `c/`, not by directory name).
 */
export function seedEntries(): Map<string, Uint8Array> {
  return new Map<string, Uint8Array>([
    ["zarr.json", text('{"zarr_format":3,"node_type":"group"}')],
    ["a/zarr.json", text('{"zarr_format":3,"node_type":"array"}')],
    ["a/c/0/0", patternBytes(100, 1)],
    ["a/c/0/1", allByteValues()],
    ["a/c/1/0", new Uint8Array(0)],
    ["b/.zarray", text('{"zarr_format":2}')],
    ["b/0.0", Uint8Array.of(42)],
    ["c-", patternBytes(7, 2)],
    ["c.d/x", patternBytes(3, 3)],
    ["c/x", patternBytes(5, 4)],
  ]);
}

/** Ranges to try on every value: inside, clipped at the end, past the end, empty, whole. */
export function rangesFor(size: number): ByteRange[] {
  const around = [0, 1, Math.floor(size / 2), size - 1, size, size + 1, size + 1000];
  const ranges: ByteRange[] = [];
  for (const offset of around.filter((n) => n >= 0)) {
    ranges.push({ offset });
    for (const length of [0, 1, 3, size, size + 10]) ranges.push({ offset, length });
  }
  for (const suffix of [0, 1, 3, size - 1, size, size + 1, size + 1000].filter((n) => n >= 0)) {
    ranges.push({ suffix });
  }
  return ranges;
}

/** Well-typed ranges whose numbers are not non-negative integers. */
export const MALFORMED_RANGES: readonly ByteRange[] = [
  { offset: -1 },
  { offset: -1, length: 2 },
  { offset: 0, length: -1 },
  { offset: 1.5 },
  { offset: Number.NaN },
  { offset: 0, length: Number.POSITIVE_INFINITY },
  { suffix: -1 },
  { suffix: 0.5 },
];

import { SelectionError } from "./errors.js";

/** A Python-style slice: `start`, `stop` and `step`, each optional (null = the default). */
export interface Slice {
  /** Discriminates slices from other selection items. */
  readonly kind: "slice";
  /** First index (negative counts from the end); null = the start (or the end for negative steps). */
  readonly start: number | null;
  /** Index to stop before (negative counts from the end); null = past the last element. */
  readonly stop: number | null;
  /** Step, any non-zero integer; null = 1. */
  readonly step: number | null;
}

/**
 * Makes a slice, like Python's `slice()`: `slice(stop)`, `slice(start, stop)` or
 * `slice(start, stop, step)`. `slice(null, null, -1)` reverses an axis.
 *
 * ```ts
 * await arr.get([slice(10, 20), slice(null, null, -1), 3]);
 * ```
 * @category Selections
 */
export function slice(
  startOrStop?: number | null,
  stop?: number | null,
  step?: number | null,
): Slice {
  if (stop === undefined && step === undefined) {
    return { kind: "slice", start: null, stop: startOrStop ?? null, step: null };
  }
  return { kind: "slice", start: startOrStop ?? null, stop: stop ?? null, step: step ?? null };
}

/** Whether a value is a {@link Slice}. */
export function isSlice(value: unknown): value is Slice {
  return typeof value === "object" && value !== null && (value as Slice).kind === "slice";
}

/**
 * Resolves a slice against an axis of `length` elements like Python's `slice.indices`:
 * the first index, the step and how many indices it selects.
 * @throws SelectionError for a zero or non-integer step, or non-integer bounds
 */
export function resolveSlice(
  s: Slice,
  length: number,
  axis: number,
): { start: number; step: number; count: number } {
  const step = s.step ?? 1;
  if (!Number.isInteger(step) || step === 0) {
    throw new SelectionError(`Axis ${axis}: slice step must be a non-zero integer, got ${s.step}`);
  }
  for (const [name, value] of [
    ["start", s.start],
    ["stop", s.stop],
  ] as const) {
    if (value !== null && !Number.isInteger(value)) {
      throw new SelectionError(
        `Axis ${axis}: slice ${name} must be an integer or null, got ${value}`,
      );
    }
  }
  let start: number;
  let stop: number;
  if (step > 0) {
    start = s.start === null ? 0 : clamp(s.start < 0 ? s.start + length : s.start, 0, length);
    stop = s.stop === null ? length : clamp(s.stop < 0 ? s.stop + length : s.stop, 0, length);
  } else {
    start =
      s.start === null
        ? length - 1
        : clamp(s.start < 0 ? s.start + length : s.start, -1, length - 1);
    stop = s.stop === null ? -1 : clamp(s.stop < 0 ? s.stop + length : s.stop, -1, length - 1);
  }
  const span = step > 0 ? stop - start : start - stop;
  const count = span <= 0 ? 0 : Math.ceil(span / Math.abs(step));
  return { start, step, count };
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/** Formats a slice the way Python prints it in an index expression (`1:10:2`, `::-1`). */
export function formatSlice(s: Slice): string {
  const part = (v: number | null) => (v === null ? "" : String(v));
  return s.step === null
    ? `${part(s.start)}:${part(s.stop)}`
    : `${part(s.start)}:${part(s.stop)}:${s.step}`;
}

/**
 * Parses a selection written as text, NumPy style: `"0:10, ::-1, 3, ..."` (as the CLI's
 * `--select` takes it). Empty text selects everything.
 * @throws SelectionError for text that is not a selection
 */
export function parseSelection(text: string): (number | Slice | null | "...")[] {
  if (text.trim() === "") return [];
  return text.split(",").map((part, axis) => {
    const item = part.trim();
    if (item === "...") return "...";
    if (item === "" || item === ":") return null;
    if (item.includes(":")) {
      const fields = item.split(":");
      if (fields.length > 3)
        throw new SelectionError(`Cannot parse slice "${item}" (item ${axis})`);
      const [start, stop, step] = fields.map((f) => parseIntOrNull(f.trim(), item));
      return { kind: "slice", start: start ?? null, stop: stop ?? null, step: step ?? null };
    }
    const value = parseIntOrNull(item, item);
    if (value === null) throw new SelectionError(`Cannot parse index "${item}" (item ${axis})`);
    return value;
  });
}

function parseIntOrNull(text: string, item: string): number | null {
  if (text === "") return null;
  if (!/^[+-]?\d+$/.test(text))
    throw new SelectionError(`Cannot parse "${item}": "${text}" is not an integer`);
  return Number(text);
}

import { UsageError } from "../errors.js";

/** Bytes per unit: decimal (kB, MB, GB) and binary (KiB, MiB, GiB) prefixes. */
const UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/**
 * Reads a byte count as people write it: `4194304`, `4MiB`, `4 MB`, `1.5GiB` (units are not
 * case-sensitive; `MiB` is 2^20 bytes, `MB` 10^6).
 * @param option the option's name, for the error message
 * @throws UsageError for anything else, or a count below one byte
 */
export function parseByteSize(option: string, text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  const unit = match ? UNITS[(match[2] || "b").toLowerCase()] : undefined;
  const bytes = match && unit ? Math.floor(Number(match[1]) * unit) : Number.NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) {
    throw new UsageError(
      `--${option} must be a size in bytes such as 4194304, 4MiB or 256MB, got ${text}`,
    );
  }
  return bytes;
}

/** A byte count for people: `4 MiB`, `1.5 GiB`, `512 B`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ["GiB", 2 ** 30],
    ["MiB", 2 ** 20],
    ["KiB", 2 ** 10],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} B`;
}

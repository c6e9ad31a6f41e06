import { formatValue } from "@z/errors";
import type { JsonObject } from "@z/metadata";
import { CodecConfigError } from "../errors.js";
import type { BytesDecodeOptions } from "../types.js";

/**
 * The most bytes a decoder may produce: the exact size when it is known, else the bound.
 * Every decoder here sizes its output from this number and nothing the input claims.
 */
export function decodeLimit(options: BytesDecodeOptions): number {
  const { expectedSize, maxSize } = options;
  return expectedSize === undefined ? maxSize : Math.min(expectedSize, maxSize);
}

/** Reads an optional integer configuration field, checking its range. */
export function integerOption(
  configuration: JsonObject,
  key: string,
  codec: string,
  fallback: number,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = configuration[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    const range =
      min === Number.MIN_SAFE_INTEGER ? "an integer" : `an integer from ${min} to ${max}`;
    throw new CodecConfigError(
      `${codec} codec: "${key}" must be ${range}, got ${formatValue(value)}`,
    );
  }
  return value;
}

/** Reads an optional boolean configuration field. */
export function booleanOption(
  configuration: JsonObject,
  key: string,
  codec: string,
  fallback: boolean,
): boolean {
  const value = configuration[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "boolean") {
    throw new CodecConfigError(
      `${codec} codec: "${key}" must be true or false, got ${formatValue(value)}`,
    );
  }
  return value;
}

/** The message of anything thrown, for wrapping third-party errors into a DecodeError. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

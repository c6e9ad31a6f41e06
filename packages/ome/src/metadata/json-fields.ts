import { formatValue } from "@z/errors";
import type { JsonObject, JsonValue } from "@z/metadata";
import { OmeMetadataError } from "../errors.js";

/** Where the attributes being read come from, for the messages of the errors. */
export interface FieldContext {
  /** The group's path in its store. */
  nodePath?: string;
}

/** Throws the metadata error for the field `where`. */
export function fail(context: FieldContext, where: string, problem: string): never {
  throw new OmeMetadataError(where, problem, { path: context.nodePath });
}

/** `where` extended by a key (`a.b`), or by an index (`a[2]`). */
export function field(where: string, key: string | number): string {
  if (typeof key === "number") return `${where}[${key}]`;
  return where === "" ? key : `${where}.${key}`;
}

function kindOf(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${formatValue(value)}`;
}

/** The value as a JSON object, or a metadata error naming `where`. */
export function objectAt(context: FieldContext, value: unknown, where: string): JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    fail(context, where, `must be an object, found ${kindOf(value)}`);
  return value as JsonObject;
}

/** The value as a JSON list, or a metadata error naming `where`. */
export function listAt(context: FieldContext, value: unknown, where: string): JsonValue[] {
  if (!Array.isArray(value)) fail(context, where, `must be a list, found ${kindOf(value)}`);
  return value;
}

/** The value as a string, or a metadata error naming `where`. */
export function stringAt(context: FieldContext, value: unknown, where: string): string {
  if (typeof value !== "string") fail(context, where, `must be a string, found ${kindOf(value)}`);
  return value;
}

/** The value as a boolean, or a metadata error naming `where`. */
export function booleanAt(context: FieldContext, value: unknown, where: string): boolean {
  if (typeof value !== "boolean")
    fail(context, where, `must be true or false, found ${kindOf(value)}`);
  return value;
}

/**
 * The value as a finite number (an integer beyond 2^53, parsed as a bigint, as its nearest
 * number), or a metadata error naming `where`.
 */
export function numberAt(context: FieldContext, value: unknown, where: string): number {
  const n = typeof value === "bigint" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n))
    fail(context, where, `must be a finite number, found ${kindOf(value)}`);
  return n;
}

/** Reads `object[key]` with `read` when present (and not null), else undefined. */
export function optionalField<T>(
  object: JsonObject,
  key: string,
  where: string,
  read: (value: JsonValue, where: string) => T,
): T | undefined {
  const value = object[key];
  return value === undefined || value === null ? undefined : read(value, field(where, key));
}

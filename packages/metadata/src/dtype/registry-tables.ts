// The registry's tables, apart from its public functions so that the built-in data types that
// load on first use (register-lazy.ts) can add themselves behind anything registered already.

import type { JsonValue } from "../json.js";
import { type OnceLoader, runLoaderOnce } from "../load-once.js";
import type { DataType, Endian } from "./types.js";

/** A data type read from v2 metadata, with the byte order its type string names. */
export interface V2DataType {
  /** The data type. */
  dataType: DataType;
  /** The byte order of stored elements. */
  endian: Endian;
}

/** Resolves a v3 `data_type` JSON value to a data type, or `undefined` if it is not its kind. */
export type V3DataTypeResolver = (json: JsonValue) => DataType | undefined;
/** Resolves a v2 `dtype` JSON value to a data type and byte order, or `undefined`. */
export type V2DataTypeResolver = (json: JsonValue) => V2DataType | undefined;

/** Data types by their plain-string v3 name. */
export const byName = new Map<string, DataType>();
/** Resolvers of v3 `data_type` forms, first match wins. */
export const v3Resolvers: V3DataTypeResolver[] = [];
/** Resolvers of v2 `dtype` forms, first match wins. */
export const v2Resolvers: V2DataTypeResolver[] = [];

/**
 * Adds a built-in data type (or resolvers) behind every registration made so far: the built-in
 * types that load on first use must not replace what a user registered under the same name
 * before they loaded (as `registerDataType` after an eager built-in would have).
 */
export function addBuiltinDataType(
  entry: DataType | { v3?: V3DataTypeResolver; v2?: V2DataTypeResolver },
): void {
  if ("name" in entry && "create" in entry) {
    if (!byName.has(entry.name)) byName.set(entry.name, entry);
    return;
  }
  if (entry.v3) v3Resolvers.push(entry.v3);
  if (entry.v2) v2Resolvers.push(entry.v2);
}

/** A module that registers data types when imported, and the descriptions it may resolve. */
export interface DataTypeLoader extends OnceLoader {
  /** Whether the module may resolve a `data_type` / `dtype` description. */
  readonly matches: (json: JsonValue) => boolean;
}

/** The loaders extensions registered with `registerDataTypeLoader`. */
export const dataTypeLoaders: DataTypeLoader[] = [];

/** Runs a data type loader once (see {@link runLoaderOnce}). */
export const runDataTypeLoader: (loader: DataTypeLoader) => Promise<void> = runLoaderOnce;

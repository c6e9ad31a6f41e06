// The data types beyond the plain numeric ones (complex, datetime, fixed-length strings, raw
// bytes, structured records, the minifloats and small integers of the extension registry) live
// in a module of their own that loads on first use, so that an app that only reads numbers
// never downloads them.
import { dataTypeLoaders, runDataTypeLoader } from "./registry-tables.js";

let loaded = false;
let loading: Promise<void> | undefined;

/**
 * Loads the data types that are not loaded at startup: the built-in complex, datetime64 and
 * timedelta64, fixed-length bytes and unicode strings, raw bytes, structured records, bfloat16
 * and the float8/6/4 formats, the 2- and 4-bit integers and the complex_* extension types, and
 * those of every loader registered so far (`registerDataTypeLoader`, e.g. Arrow's). Opening or
 * creating an array loads what its metadata names; call this before resolving such a type
 * synchronously (`resolveDataTypeV3`, `resolveDataTypeV2`, `resolveNumpyDataType`). Resolves at
 * once once loaded; a failed load (a network error in a browser) may be retried.
 * @example
 * ```ts
 * await loadDataTypes();
 * const complex = resolveDataTypeV3("complex64");
 * ```
 * @category Data types
 */
export async function loadDataTypes(): Promise<void> {
  await Promise.all([loadBuiltinDataTypes(), ...dataTypeLoaders.map(runDataTypeLoader)]);
}

/** Loads the built-in data types that load on first use (register-lazy.ts), once. */
export function loadBuiltinDataTypes(): Promise<void> {
  if (loaded) return Promise.resolve();
  loading ??= import("./register-lazy.js").then(
    (module) => {
      module.registerLazyDataTypes();
      loaded = true;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/**
 * Whether the built-in data types that load on first use are loaded (every built-in data type
 * resolves synchronously).
 * @category Data types
 */
export function dataTypesLoaded(): boolean {
  return loaded;
}

import type { DataType } from "@z/metadata";
import type { CreateNodeOptions } from "../write/create-nodes.js";
import type { ArrayOptions } from "./array-metadata-builder.js";
import { type ArraySource, type LikeOptions, optionsLike } from "./options-like.js";

// What NumPy-style shorthands (zeros, ones, full, empty and their `*Like` twins) ask
// createArray for: one definition shared by the top-level functions and the group methods, so
// a group's `zeros` creates exactly what `zeros(store, {path})` does.

/**
 * Options of {@link zeros}, {@link ones}, {@link full} and {@link empty}: `createArray`'s, with
 * the data type defaulting to `float64` (NumPy's default).
 */
export type CreationOptions = Omit<ArrayOptions, "dtype" | "fillValue"> &
  CreateNodeOptions & { dtype?: string | DataType };

type Created<O> = Omit<O, "dtype"> & { dtype: string | DataType; fillValue?: unknown };

function withDefaults<O extends CreationOptions>(options: O, fillValue?: unknown): Created<O> {
  const dtype = options.dtype ?? "float64";
  return fillValue === undefined ? { ...options, dtype } : { ...options, dtype, fillValue };
}

/** The creation options of an array of zeros (a fill value of 0). */
export function zerosOptions<O extends CreationOptions>(options: O): Created<O> {
  return withDefaults(options, 0);
}

/** The creation options of an array of ones (a fill value of 1). */
export function onesOptions<O extends CreationOptions>(options: O): Created<O> {
  return withDefaults(options, 1);
}

/** The creation options of an array whose elements read as `options.fillValue`. */
export function fullOptions<O extends CreationOptions & { fillValue: unknown }>(
  options: O,
): Created<O> {
  return withDefaults(options);
}

/** The creation options of an array left unwritten (its elements read as the fill value). */
export function emptyOptions<O extends CreationOptions & { fillValue?: unknown }>(
  options: O,
): Created<O> {
  return withDefaults(options);
}

/** The creation options of an array of zeros like `source` (see {@link LikeOptions}). */
export function zerosLikeOptions(source: ArraySource, options: LikeOptions = {}): ArrayOptions {
  return { ...optionsLike(source, options), fillValue: 0 };
}

/** The creation options of an array of ones like `source`. */
export function onesLikeOptions(source: ArraySource, options: LikeOptions = {}): ArrayOptions {
  return { ...optionsLike(source, options), fillValue: 1 };
}

/** The creation options of an array like `source` whose elements read as `options.fillValue`. */
export function fullLikeOptions(
  source: ArraySource,
  options: LikeOptions & { fillValue: unknown },
): ArrayOptions {
  return optionsLike(source, options);
}

/** The creation options of an array like `source`, left unwritten. */
export function emptyLikeOptions(source: ArraySource, options: LikeOptions = {}): ArrayOptions {
  return optionsLike(source, options);
}

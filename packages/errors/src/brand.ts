import type { ZarrError } from "./zarr-error.js";

/**
 * The brand every `@z` error carries. `Symbol.for` makes it one symbol across copies of a
 * package (two versions in one bundle, a worker), where `instanceof` would say no.
 */
export const ZARR_ERROR_BRAND: unique symbol = Symbol.for("@z/error") as never;

/**
 * The error classes of the `@z` packages by `name`, for {@link isZarrError}'s narrowing. Each
 * package adds its classes by declaration merging, and so can an extension:
 * ```ts
 * declare module "@z/errors" {
 *   interface ZarrErrorMap {
 *     MyCodecError: MyCodecError;
 *   }
 * }
 * ```
 * @category Errors
 */
export interface ZarrErrorMap {
  ZarrError: ZarrError;
}

/** The name of a registered error class (a key of {@link ZarrErrorMap}). */
export type ZarrErrorName = keyof ZarrErrorMap;

/** What every `@z` error is: an `Error` with the brand (and, for most, the facts of {@link ZarrError}). */
export interface BrandedError extends Error {
  readonly [ZARR_ERROR_BRAND]: true;
}

/**
 * True for any error thrown by an `@z` package, whichever package (and whichever copy of it)
 * defined its class. With a name, true only for that class or a subclass of it, and the error
 * is narrowed to that class with its fields.
 * @example
 * ```ts
 * try {
 *   await arr.get();
 * } catch (e) {
 *   if (isZarrError(e, "DecodeError")) console.error(e.key, e.codec, e.cause); // the chunk, the codec, why
 *   else if (isZarrError(e)) console.error(e.name, e.message);
 * }
 * ```
 * @category Errors
 */
export function isZarrError(error: unknown): error is BrandedError;
/** True for an `@z` error of the class registered as `name` (or a subclass), narrowed to it. */
export function isZarrError<N extends ZarrErrorName>(
  error: unknown,
  name: N,
): error is ZarrErrorMap[N];
export function isZarrError(error: unknown, name?: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ((error as Partial<BrandedError>)[ZARR_ERROR_BRAND] !== true) return false;
  return name === undefined || errorNames(error).includes(name);
}

/**
 * The names of an error's class and of the classes it extends, most derived first: the
 * instance's `name`, then every `name` set on a prototype of its chain (class names survive
 * minification this way, constructor names do not).
 */
export function errorNames(error: object): string[] {
  const names: string[] = [];
  const own = (error as { name?: unknown }).name;
  if (typeof own === "string") names.push(own);
  for (let p = Object.getPrototypeOf(error); p !== null; p = Object.getPrototypeOf(p)) {
    if (p === Error.prototype) break;
    const name = Object.getOwnPropertyDescriptor(p, "name")?.value;
    if (typeof name === "string" && !names.includes(name)) names.push(name);
  }
  return names;
}

import { ZARR_ERROR_BRAND } from "./brand.js";
import { setFacts } from "./set-facts.js";

/**
 * The facts an error can carry about where it happened and why. Each is set when known by the
 * code that raises the error, or by {@link locateError} in the layer that knows it.
 */
export interface ErrorFacts {
  /** The store key the error is about (a chunk, a shard, a metadata document). */
  key?: string;
  /** The node path (array or group) the error is about (`a/b`; a `NotFoundError` shows it as `/a/b`). */
  path?: string;
  /** The name of the codec that failed. */
  codec?: string;
  /** The error underneath (a zlib error, a filesystem error, a fetch failure). */
  cause?: unknown;
}

/** The constructor options of a {@link ZarrError}: its facts. */
export type ZarrErrorOptions = ErrorFacts;

/**
 * Sets an error class's `name` on its prototype, where {@link isZarrError} finds the names of
 * a class and of the classes it extends. Call it in the class's static block.
 */
export function nameErrorClass(errorClass: { prototype: Error }, name: string): void {
  Object.defineProperty(errorClass.prototype, "name", {
    value: name,
    writable: true,
    configurable: true,
    enumerable: false,
  });
}

/**
 * Base class of the `@z` errors: branded for {@link isZarrError}, with the facts (`key`,
 * `path`, `codec`, `cause`) given to its constructor. Errors that must also be a `TypeError`
 * (bad values) carry the brand without extending it.
 * @category Errors
 */
export class ZarrError extends Error {
  static {
    nameErrorClass(ZarrError, "ZarrError");
  }
  /** The `@z` error brand, which {@link isZarrError} checks. */
  readonly [ZARR_ERROR_BRAND] = true as const;
  /** The store key the error is about, when there is one. */
  declare readonly key?: string;
  /** The node path the error is about, when there is one. */
  declare readonly path?: string;
  /** The codec that failed, when one did. */
  declare readonly codec?: string;

  constructor(message?: string, options?: ZarrErrorOptions) {
    super(message, options && "cause" in options ? { cause: options.cause } : undefined);
    if (options) setFacts(this, options, false);
  }
}

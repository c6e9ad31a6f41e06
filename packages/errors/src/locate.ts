import { isZarrError } from "./brand.js";
import { setFacts } from "./set-facts.js";
import type { ErrorFacts } from "./zarr-error.js";

/**
 * Records where an error happened, for errors raised by code that cannot know it (a codec
 * does not know the key of the chunk it decodes): sets the facts the error does not carry yet
 * and starts its message with `where` (`chunk /a/c/0`), once. The same error comes back, so
 * its class is unchanged: a `ChecksumError` stays one. Errors of other libraries get the
 * `where` in their message but no fields; non-errors come back untouched.
 * @returns the error, to be thrown
 */
export function locateError(error: unknown, where: string, facts: ErrorFacts = {}): unknown {
  if (!(error instanceof Error) && !isZarrError(error)) return error;
  if (isZarrError(error)) setFacts(error, facts, true);
  if (where !== "" && !error.message.startsWith(where))
    error.message = `${where}: ${error.message}`;
  return error;
}

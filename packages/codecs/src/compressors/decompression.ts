import { DecompressionError } from "@z/compression/errors";
import { DecodeError } from "../errors.js";

/**
 * Runs a decoder of `@z/compression` (synchronous or not), its {@link DecompressionError} told
 * as the DecodeError `translate` words; other errors pass unchanged.
 */
export function translatingErrors<T>(
  decode: () => T,
  translate: (error: DecompressionError) => DecodeError,
): T {
  const rethrow = (error: unknown): never => {
    throw error instanceof DecompressionError ? translate(error) : error;
  };
  try {
    const result = decode();
    return (result instanceof Promise ? result.catch(rethrow) : result) as T;
  } catch (error) {
    return rethrow(error);
  }
}

/**
 * Runs a decoder of `@z/compression` for the codec `label` names (`"gzip codec"`): data past the
 * limit is told as more than the chunk may hold, anything else as corrupt data.
 */
export function decoding<T>(label: string, decode: () => T): T {
  return translatingErrors(decode, (error) => {
    const what =
      error.limit === undefined
        ? `corrupt or truncated data (${error.problem})`
        : `${error.problem}, the most this chunk may hold`;
    return new DecodeError(`${label}: ${what}`, { cause: error });
  });
}

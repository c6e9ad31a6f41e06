import { nameErrorClass, ZarrError } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    StatsUnsupportedError: StatsUnsupportedError;
  }
}

/**
 * Statistics asked of an array whose elements are not numbers (complex, strings, ...): the
 * message names the array and says why. An `@z` error.
 */
export class StatsUnsupportedError extends ZarrError {
  static {
    nameErrorClass(StatsUnsupportedError, "StatsUnsupportedError");
  }
}

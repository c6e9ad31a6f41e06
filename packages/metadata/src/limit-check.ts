// The limit check, in a file of its own so that a module needing only these does not
// load limits.ts with them (first-load size: packages/zarr/test/bundlers/sizes.test.ts).
import { MetadataLimitError } from "./errors.js";
import type { MetadataLimits } from "./limits.js";
import { metadataLimits } from "./limits.js";

/**
 * Throws a {@link MetadataLimitError} when `value` exceeds the limit `name`.
 * @param what describes the value, e.g. `/a/.zarray: the element size`
 */
export function checkLimit(name: keyof MetadataLimits, value: number, what: string): void {
  const limit = metadataLimits()[name];
  if (value > limit) {
    throw new MetadataLimitError(
      `${what} is ${value}, more than the limit of ${limit} (${name}; raise it with setMetadataLimits() if this data is genuine)`,
      name,
      limit,
      value,
    );
  }
}

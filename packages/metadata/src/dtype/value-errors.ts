import { nameErrorClass, ZARR_ERROR_BRAND } from "@z/errors";
import { valueDescription } from "./value-description.js";

/**
 * A value passed to `set` (or as a fill value) that the array's data type cannot hold
 * exactly: NaN, ±Infinity or a fraction into an integer type, a number out of the type's
 * range, a string into a numeric type, a number into a string type, a string longer than a
 * fixed-length element, a record with a missing or unknown field. Nothing is converted
 * silently: the message names the value, the data type and (for one element of a larger
 * value) its index. It is a `TypeError` too, which is what these checks threw before they had
 * a class of their own.
 *
 * ```ts
 * try { await arr.set([0], Number.NaN); } catch (e) {
 *   if (e instanceof ValueTypeError) e.dataType; // "int32"
 * }
 * ```
 */
export class ValueTypeError extends TypeError {
  static {
    nameErrorClass(ValueTypeError, "ValueTypeError");
  }
  /** The `@z` error brand (see `isZarrError`): a `TypeError` cannot extend `ZarrError`. */
  readonly [ZARR_ERROR_BRAND] = true as const;

  constructor(
    /** The value that does not fit. */
    readonly value: unknown,
    /** The name of the data type it was written to. */
    readonly dataType: string,
    /** Why it does not fit, e.g. "expected an integer in -128..127". */
    readonly reason: string,
    /** The index of the element within the value passed to `set`, when it was one of many. */
    readonly index?: readonly number[],
  ) {
    super(
      `Cannot store ${valueDescription(value)} as ${dataType}` +
        (index ? ` (element [${index.join(", ")}] of the value)` : "") +
        `: ${reason}`,
    );
  }

  /** The same error for the element at `index` of a larger value. */
  at(index: readonly number[]): ValueTypeError {
    return new ValueTypeError(this.value, this.dataType, this.reason, index);
  }
}

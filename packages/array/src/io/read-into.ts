import { type DataType, ValueTypeError } from "@z/metadata";
import type { Container } from "@z/ndarray";
import { shown } from "../create/option-checks.js";
import { ValueShapeError } from "../errors.js";

/** A container's class name for messages (`Float32Array`, `Array`), or how the value looks. */
function className(value: unknown): string {
  if (typeof value !== "object" || value === null) return shown(value);
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === "string" && name !== "" ? name : "an object without a class";
}

/**
 * Checks the `out` option of a read of `n` elements of shape `shape`: it must be of the class
 * `dataType.create` makes (complex64 reads fill a `Complex64Array`, not any `Float32Array`)
 * and exactly as long as `dataType.create(n)` would be. Called before any chunk is read, so a
 * bad `out` costs no I/O and is left untouched.
 * @throws ValueTypeError for a value of another class; ValueShapeError for another length
 */
export function checkOut(
  out: unknown,
  dataType: DataType,
  n: number,
  shape: readonly number[],
): Container {
  // create(0) and create(1) cost nothing, unlike create(n) for the expected length.
  const expected = dataType.create(0).constructor;
  const given =
    typeof out === "object" && out !== null ? (out as { constructor?: unknown }).constructor : out;
  if (given !== expected) {
    throw new ValueTypeError(
      out,
      dataType.name,
      `the out option of a read must be of class ${expected.name} (the container ${dataType.name} reads create), got ${className(out)}`,
    );
  }
  const container = out as Container;
  const perElement = dataType.create(1).length;
  const length = n * perElement;
  if (container.length !== length) {
    const slots = perElement === 1 ? "" : ` (${perElement} per element)`;
    throw new ValueShapeError(
      `The out option must have length ${length} for a read of ${n} ${dataType.name} elements of shape [${shape.join(", ")}]${slots}, got ${className(out)} of length ${container.length}`,
    );
  }
  return container;
}

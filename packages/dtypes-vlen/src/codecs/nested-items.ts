import { type ChunkSpec, DecodeError } from "@z/codecs";
import { formatValue } from "@z/errors";
import { product } from "@z/ndarray";

/** The elements of a chunk as numcodecs' json2 and msgpack2 lay them out. */
export interface NestedItems {
  /** The elements in C order. */
  elements: unknown[];
  /** The NumPy dtype string written after them. */
  dtype: string;
  /** The shape written last (absent for the legacy `json` codec). */
  shape: number[] | undefined;
}

/**
 * Nests a chunk's elements the way NumPy's `tolist()` does: one list level per dimension
 * (a 0-d chunk becomes a one-element list, as `np.atleast_1d` makes it).
 */
export function nestElements(elements: ArrayLike<unknown>, shape: readonly number[]): unknown[] {
  if (shape.length <= 1) return Array.from(elements);
  let level: unknown[] = Array.from(elements);
  for (let axis = shape.length - 1; axis >= 1; axis--) {
    const extent = shape[axis];
    const next: unknown[] = [];
    for (let i = 0; i < level.length; i += extent) next.push(level.slice(i, i + extent));
    level = next;
  }
  return level;
}

function flatten(items: unknown[], shape: readonly number[], codec: string): unknown[] {
  if (shape.length <= 1) return items;
  const out: unknown[] = [];
  const walk = (level: unknown, axis: number): void => {
    if (axis === shape.length) {
      out.push(level);
      return;
    }
    if (!Array.isArray(level) || level.length !== shape[axis]) {
      throw new DecodeError(
        `${codec}: the nested lists do not have the shape [${shape}] the chunk says it has`,
      );
    }
    for (const item of level) walk(item, axis + 1);
  };
  walk(items, 0);
  return out;
}

function isShape(value: unknown): value is number[] {
  return (
    Array.isArray(value) &&
    value.every((n) => typeof n === "number" && Number.isInteger(n) && n >= 0)
  );
}

/**
 * Reads `[...elements, dtype, shape]` (json2, msgpack2) or `[...elements, dtype]` (legacy
 * json): the elements nested by the written shape (or, without one, by the chunk's shape),
 * whose count must be the chunk's element count.
 * @throws DecodeError when the structure or the count is wrong
 */
export function readNestedItems(
  decoded: unknown,
  spec: ChunkSpec,
  codec: string,
  withShape: boolean,
): NestedItems {
  const tail = withShape ? 2 : 1;
  if (!Array.isArray(decoded) || decoded.length < tail) {
    throw new DecodeError(
      `${codec}: expected a list ending with the dtype${withShape ? " and the shape" : ""}`,
    );
  }
  const dtype = decoded[decoded.length - tail];
  if (typeof dtype !== "string")
    throw new DecodeError(`${codec}: the dtype entry is ${formatValue(dtype)}, not a string`);
  let shape: number[] | undefined;
  if (withShape) {
    const written = decoded[decoded.length - 1];
    if (!isShape(written))
      throw new DecodeError(
        `${codec}: the shape entry ${formatValue(written)} is not a list of sizes`,
      );
    shape = written;
  }
  const expected = product(spec.shape);
  const layout = shape ?? spec.shape;
  const top = decoded.slice(0, decoded.length - tail);
  const elements = layout.length === 0 ? top : flatten(top, layout, codec);
  if (elements.length !== expected || (shape !== undefined && product(shape) !== expected)) {
    throw new DecodeError(
      `${codec}: the chunk holds ${elements.length} elements; the chunk shape [${spec.shape}] has ${expected}`,
    );
  }
  return { elements, dtype, shape };
}

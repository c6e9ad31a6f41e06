import { formatValue } from "@z/errors";
import type { JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { CodecConfigError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";

/**
 * The `transpose` codec: permutes the dimensions of a chunk. Both directions only permute
 * strides (no copy); the `bytes` codec writes the permuted view in C order.
 */
export class TransposeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = "transpose";
  constructor(readonly order: readonly number[]) {}

  /**
   * Builds the codec for chunks of `ndim` dimensions from `{order: [...]}`, also accepting the
   * early `"C"` and `"F"` spellings.
   */
  static fromConfig(configuration: JsonObject, ndim: number): TransposeCodec {
    const order = parseOrder(configuration.order, ndim);
    return new TransposeCodec(order);
  }

  toJson(): NamedConfig {
    return { name: "transpose", configuration: { order: [...this.order] }, mustUnderstand: true };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    return { ...spec, shape: this.order.map((axis) => spec.shape[axis]) };
  }

  encode(chunk: Chunk): Chunk {
    return {
      data: chunk.data,
      shape: this.order.map((axis) => chunk.shape[axis]),
      stride: this.order.map((axis) => chunk.stride[axis]),
    };
  }

  decode(chunk: Chunk): Chunk {
    const shape = new Array<number>(this.order.length);
    const stride = new Array<number>(this.order.length);
    this.order.forEach((axis, i) => {
      shape[axis] = chunk.shape[i];
      stride[axis] = chunk.stride[i];
    });
    return { data: chunk.data, shape, stride };
  }
}

function parseOrder(order: JsonValue | undefined, ndim: number): number[] {
  if (order === "C") return Array.from({ length: ndim }, (_, i) => i);
  if (order === "F") return Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
  const valid =
    Array.isArray(order) &&
    order.length === ndim &&
    order.every(
      (axis) => typeof axis === "number" && Number.isInteger(axis) && axis >= 0 && axis < ndim,
    ) &&
    new Set(order).size === ndim;
  if (!valid) {
    throw new CodecConfigError(
      `transpose codec: "order" must be a permutation of 0..${ndim - 1}, got ${formatValue(order)}`,
    );
  }
  return order as number[];
}

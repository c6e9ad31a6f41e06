import { formatValue } from "@z/errors";
import type { JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { CodecConfigError, DecodeError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";

const NAME = "reshape";

/** One entry of `shape`: a size, `-1` (inferred), or the input dimensions it merges. */
export type ReshapeDimension = number | readonly number[];

/**
 * The `reshape` codec (zarr-extensions `codecs/reshape`): gives the chunk another shape with the
 * same elements in the same C order. `shape` entries are sizes, `-1` (the one size that makes
 * the element counts equal) or lists of input dimensions whose sizes multiply. Neither
 * direction copies a C-ordered chunk; a strided view is put in C order first.
 */
export class ReshapeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;

  /**
   * @param shape the configuration's `shape`
   * @param inputShape when given, the shape of the chunks it will get, checked now
   * @throws CodecConfigError
   */
  constructor(
    readonly shape: readonly ReshapeDimension[],
    inputShape?: readonly number[],
  ) {
    checkShapeEntries(shape);
    if (inputShape) this.outputShape(inputShape);
  }

  /**
   * Builds the codec from `{shape: [...]}` for chunks of `spec`.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec?: ChunkSpec): ReshapeCodec {
    const extra = Object.keys(configuration).filter((key) => key !== "shape");
    if (extra.length > 0) {
      throw new CodecConfigError(
        `${NAME} codec: unknown configuration field(s) ${extra.map((k) => `"${k}"`).join(", ")}; only "shape" is allowed`,
      );
    }
    const shape = configuration.shape;
    if (!Array.isArray(shape)) {
      throw new CodecConfigError(
        `${NAME} codec: "shape" must be an array of sizes, -1 or arrays of input dimensions, got ${formatValue(shape)}`,
      );
    }
    return new ReshapeCodec(shape as ReshapeDimension[], spec?.shape);
  }

  toJson(): NamedConfig {
    return {
      name: NAME,
      configuration: { shape: this.shape.map((d) => (typeof d === "number" ? d : [...d])) },
      mustUnderstand: true,
    };
  }

  /**
   * The shape chunks of `inputShape` take, by the spec's rules.
   * @throws CodecConfigError when the configuration does not fit `inputShape`
   */
  outputShape(inputShape: readonly number[]): number[] {
    return resolveShape(this.shape, inputShape);
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    return { ...spec, shape: this.outputShape(spec.shape) };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Chunk {
    return reshaped(chunk, spec, this.outputShape(spec.shape));
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const expected = product(spec.shape);
    if (product(chunk.shape) !== expected) {
      throw new DecodeError(
        `${NAME} codec: the encoded chunk has shape [${chunk.shape}] (${product(chunk.shape)} elements); the chunk needs ${expected}`,
      );
    }
    return reshaped(chunk, spec, spec.shape);
  }
}

/** The chunk's elements in C order under `shape` (same element count). */
function reshaped(chunk: Chunk, spec: ChunkSpec, shape: readonly number[]): Chunk {
  const ordered = toCOrder(chunk, (n) => spec.dataType.create(n), spec.dataType.lanes);
  return { data: ordered.data, shape: [...shape], stride: cOrderStrides(shape) };
}

/** Checks the form of each `shape` entry (before any input shape is known). */
function checkShapeEntries(shape: readonly JsonValue[] | readonly ReshapeDimension[]): void {
  let inferred = 0;
  let previous = -1;
  shape.forEach((entry, i) => {
    if (typeof entry === "number") {
      if (!Number.isInteger(entry) || (entry < 1 && entry !== -1)) {
        throw new CodecConfigError(
          `${NAME} codec: shape[${i}] must be a positive integer, -1 or an array of input dimensions, got ${formatValue(entry)}`,
        );
      }
      if (entry === -1 && ++inferred > 1) {
        throw new CodecConfigError(`${NAME} codec: -1 may occur at most once in "shape"`);
      }
      return;
    }
    if (!Array.isArray(entry)) {
      throw new CodecConfigError(
        `${NAME} codec: shape[${i}] must be a positive integer, -1 or an array of input dimensions, got ${formatValue(entry as JsonValue)}`,
      );
    }
    for (const dim of entry as JsonValue[]) {
      if (typeof dim !== "number" || !Number.isInteger(dim) || dim < 0) {
        throw new CodecConfigError(
          `${NAME} codec: shape[${i}] lists ${formatValue(dim)}; input dimensions are integers from 0`,
        );
      }
      // A transpose would be implied by decreasing dimensions; reshape never transposes.
      if (dim <= previous) {
        throw new CodecConfigError(
          `${NAME} codec: the input dimensions in "shape" must increase strictly over all entries; ${dim} follows ${previous} at shape[${i}]`,
        );
      }
      previous = dim;
    }
  });
}

/** `B_shape` from `shape` and `A_shape`, with every constraint of the spec checked. */
function resolveShape(shape: readonly ReshapeDimension[], input: readonly number[]): number[] {
  const where = `${NAME} codec with shape ${formatValue(shape as JsonValue)} for chunks of shape [${input}]`;
  const sizes = shape.map((entry) => {
    if (typeof entry === "number") return entry;
    for (const dim of entry) {
      if (dim >= input.length) {
        throw new CodecConfigError(
          `${where}: input dimension ${dim} does not exist (the chunks have ${input.length})`,
        );
      }
    }
    return product(entry.map((dim) => input[dim]));
  });
  const total = product(input);
  const inferredAt = sizes.indexOf(-1);
  if (inferredAt >= 0) {
    const known = product(sizes.filter((_, i) => i !== inferredAt));
    if (known === 0 || total % known !== 0) {
      throw new CodecConfigError(
        `${where}: no size for the -1 entry makes ${total} elements (the other sizes multiply to ${known})`,
      );
    }
    sizes[inferredAt] = total / known;
  }
  if (product(sizes) !== total) {
    throw new CodecConfigError(
      `${where}: the output shape [${sizes}] has ${product(sizes)} elements, the chunks ${total}`,
    );
  }
  shape.forEach((entry, i) => {
    if (typeof entry === "number" || entry.length === 0) return;
    const first = entry[0];
    const last = entry[entry.length - 1];
    const before = product(sizes.slice(0, i)) === product(input.slice(0, first));
    const after = product(sizes.slice(i + 1)) === product(input.slice(last + 1));
    if (!before || !after) {
      throw new CodecConfigError(
        `${where}: output dimension ${i} is said to merge input dimensions [${entry}], but the ` +
          `output dimensions before and after it do not hold exactly the input dimensions before and after those`,
      );
    }
  });
  return sizes;
}

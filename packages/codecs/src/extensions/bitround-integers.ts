import type { DataType, JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk, Container } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { CodecConfigError, DecodeError } from "../errors.js";
import { parseInteger } from "../filters/config.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { type IntegerDomain, type NumericScalar, numericDomain } from "./numeric-domain.js";

const NAME = "bitround";

/**
 * The registered `bitround` codec for integer chunks (zarr-extensions `codecs/bitround`): keeps
 * `keepbits` bits from each element's most significant set bit, rounding the rest to nearest
 * with ties to even. It works on the element's bit pattern read as unsigned (so a negative
 * two's complement value keeps bits from the top bit), and a round-up past the largest
 * pattern saturates, as the registry's sample data and zarrs have it. Decoding is the identity.
 * Float chunks go to {@link BitRoundCodec} under the same name.
 */
export class IntegerBitRoundCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;
  private readonly domain: IntegerDomain;
  private readonly roundOne: (value: NumericScalar) => NumericScalar;

  /** @throws CodecConfigError for non-integer data types */
  constructor(
    readonly keepbits: number,
    readonly dataType: DataType,
  ) {
    const domain = numericDomain(dataType, NAME);
    if (domain.kind !== "integer") {
      throw new CodecConfigError(`${NAME}: ${dataType.name} is not an integer type`);
    }
    this.domain = domain;
    this.roundOne = domain.big
      ? (v) => this.roundBig(v as bigint)
      : (v) => this.roundSmall(v as number);
  }

  /**
   * Builds the codec from `{keepbits}` for integer chunks of `spec`.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec: ChunkSpec): IntegerBitRoundCodec {
    const keepbits = parseInteger(configuration, "keepbits", NAME, 0, Number.MAX_SAFE_INTEGER);
    return new IntegerBitRoundCodec(keepbits, spec.dataType);
  }

  toJson(): NamedConfig {
    return { name: NAME, configuration: { keepbits: this.keepbits }, mustUnderstand: true };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fill = spec.dataType.coerce(spec.fillValue ?? spec.dataType.defaultFill) as NumericScalar;
    return { ...spec, shape: [...spec.shape], fillValue: this.roundOne(fill) };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const type = this.dataType;
    const input = toCOrder(chunk, (n) => type.create(n)).data;
    const n = product(spec.shape);
    const out = type.create(n);
    for (let i = 0; i < n; i++)
      type.setElement(out, i, this.roundOne(type.getElement(input, i) as NumericScalar));
    return { data: out as Container, shape: [...spec.shape], stride: cOrderStrides(spec.shape) };
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    if (product(chunk.shape) !== product(spec.shape)) {
      throw new DecodeError(
        `${NAME}: the encoded chunk has ${product(chunk.shape)} elements; the chunk needs ${product(spec.shape)}`,
      );
    }
    const ordered = toCOrder(chunk, (n) => this.dataType.create(n));
    return { data: ordered.data, shape: [...spec.shape], stride: cOrderStrides(spec.shape) };
  }

  /** Up to 32 bits: exact in doubles (sums stay below 2^34). */
  private roundSmall(value: number): number {
    const { bits, signed } = this.domain;
    const modulus = 2 ** bits;
    const pattern = value < 0 ? value + modulus : value;
    const width = 32 - Math.clz32(pattern);
    if (this.keepbits >= width) return value;
    const quantum = 2 ** (width - this.keepbits);
    const kept = Math.floor(pattern / quantum);
    const sum = Math.min(pattern + (kept % 2) + quantum / 2 - 1, modulus - 1);
    const rounded = Math.floor(sum / quantum) * quantum;
    return signed && rounded >= modulus / 2 ? rounded - modulus : rounded;
  }

  private roundBig(value: bigint): bigint {
    const { bits, signed } = this.domain;
    const modulus = 1n << BigInt(bits);
    const pattern = value < 0n ? value + modulus : value;
    const width = pattern === 0n ? 0 : pattern.toString(2).length;
    if (this.keepbits >= width) return value;
    const shift = BigInt(width - this.keepbits);
    const quantum = 1n << shift;
    const sum = pattern + ((pattern >> shift) & 1n) + quantum / 2n - 1n;
    const saturated = sum > modulus - 1n ? modulus - 1n : sum;
    const rounded = (saturated >> shift) << shift;
    return signed && rounded >= modulus / 2n ? rounded - modulus : rounded;
  }
}

import { formatValue } from "@z/errors";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { product } from "@z/ndarray";
import { CodecConfigError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { parseDtype, parseInteger, parseOptionalDtype, requireChunkType } from "./config.js";
import {
  cOrderChunk,
  convertElements,
  convertFill,
  type Elements,
  encodedElements,
  flatElements,
} from "./elements.js";
import { arithmetic, converter, promoteWithScalar, roundHalfEven } from "./numpy-types.js";
import { quantizeBits } from "./quantize-bits.js";
import type { FilterDtype } from "./types.js";

const NAME = "numcodecs.quantize";

/** The digits numcodecs' computation stays finite and meaningful for. */
const MAX_DIGITS = 300;

/**
 * numcodecs' `quantize` filter (lossy): `around(x * 2^bits) / 2^bits` stored as `astype`,
 * where `2^bits` is the smallest power of two at least `10^digits`; decoding only converts
 * back to `dtype`. Both types must be float types.
 */
export class QuantizeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;
  /** The type of the encoded elements (`astype`, defaulting to `dtype`). */
  readonly encoded: FilterDtype;
  /** The scale, `2 ** bits`. */
  readonly scale: number;

  constructor(
    readonly digits: number,
    readonly dtype: FilterDtype,
    astype?: FilterDtype,
  ) {
    this.encoded = astype ?? dtype;
    if (!Number.isInteger(digits) || Math.abs(digits) > MAX_DIGITS) {
      throw new CodecConfigError(
        `${NAME}: "digits" must be an integer from ${-MAX_DIGITS} to ${MAX_DIGITS}, got ${digits}`,
      );
    }
    for (const [field, type] of [
      ["dtype", this.dtype],
      ["astype", this.encoded],
    ] as const) {
      if (type.type.kind !== "float") {
        throw new CodecConfigError(
          `${NAME}: "${field}" must be a float type, got ${formatValue(type.json)}`,
        );
      }
    }
    this.scale = 2 ** quantizeBits(digits);
  }

  /**
   * Builds the codec from `{digits, dtype, astype?}`; with `spec`, checks that `dtype` is the
   * chunks' data type.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec?: ChunkSpec): QuantizeCodec {
    const digits = parseInteger(configuration, "digits", NAME, -MAX_DIGITS, MAX_DIGITS);
    const dtype = parseDtype(configuration, "dtype", NAME);
    const astype = parseOptionalDtype(configuration, "astype", NAME);
    if (spec) requireChunkType(NAME, "dtype", dtype, spec.dataType);
    return new QuantizeCodec(digits, dtype, astype);
  }

  toJson(): NamedConfig {
    return {
      name: NAME,
      configuration: { digits: this.digits, dtype: this.dtype.json, astype: this.encoded.json },
      mustUnderstand: true,
    };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fillValue = convertFill(spec, this.encoded.dataType, (one) => this.quantize(one, 1));
    return { shape: [...spec.shape], dataType: this.encoded.dataType, fillValue };
  }

  encode(chunk: Chunk): Chunk {
    const n = product(chunk.shape);
    return cOrderChunk(this.quantize(flatElements(chunk, this.dtype.dataType), n), chunk.shape);
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const n = product(spec.shape);
    const input = encodedElements(chunk, this.encoded.dataType, n, NAME);
    const out = this.dtype.dataType.create(n) as unknown as Elements;
    convertElements(input, this.encoded.type, out, this.dtype.type, n);
    return cOrderChunk(out, spec.shape);
  }

  private quantize(input: Elements, n: number): Elements {
    const from = this.dtype.type;
    // `scale` is a Python float: NumPy 1.x computes in the array's type unless it does not fit.
    const type = promoteWithScalar(from, { value: this.scale, isInteger: false });
    const math = arithmetic(type);
    const scale = math.fromPython(this.scale);
    const toType = converter(from, type);
    const toOut = converter(type, this.encoded.type);
    const out = this.encoded.dataType.create(n) as unknown as Elements;
    if (type.name === "float64" && from.name === "float64") {
      // Double arithmetic needs no rounding steps; the cast to `astype` still does.
      const s = scale as number;
      for (let i = 0; i < n; i++) out[i] = toOut(roundHalfEven(s * (input[i] as number)) / s);
      return out;
    }
    for (let i = 0; i < n; i++) {
      out[i] = toOut(math.div(math.around(math.mul(scale, toType(input[i]))), scale));
    }
    return out;
  }
}

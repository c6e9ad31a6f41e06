import { formatValue, nameErrorClass } from "@z/errors";
import type { DataType, JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import type { Chunk, Container } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { CodecConfigError, CodecError, DecodeError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { CastFailure, elementCast } from "./cast.js";
import { type NumericDomain, type NumericScalar, numericDomain } from "./numeric-domain.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    ScaleOffsetError: ScaleOffsetError;
  }
}

const NAME = "scale_offset";

/**
 * A value `scale_offset` cannot encode: the result (or `x - offset`) is not representable in
 * the data type, such as an integer overflow or a finite float overflowing to infinity.
 * @category Errors
 */
export class ScaleOffsetError extends CodecError {
  static {
    nameErrorClass(ScaleOffsetError, "ScaleOffsetError");
  }
}

/** The arithmetic of one data type, each result checked to be representable. */
interface Arithmetic {
  encode(x: NumericScalar): NumericScalar;
  decode(y: NumericScalar): NumericScalar;
}

/**
 * The `scale_offset` codec (zarr-extensions `codecs/scale_offset`): encodes `(x - offset) * scale`
 * and decodes `y / scale + offset`, in the arithmetic of the chunks' own data type (floats round
 * each operation to nearest-even in that type; integers are exact, and integer division
 * truncates toward zero). A result the type cannot represent is an error, never a wrap or an
 * infinity. The data type does not change: follow it with `cast_value` to store a narrower one.
 */
export class ScaleOffsetCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;
  private readonly arithmetic: Arithmetic;

  /**
   * @param dataType the chunks' data type, in which offset and scale are values
   * @param offset subtracted on encode (default 0)
   * @param scale multiplied on encode (default 1); not 0, since decoding divides by it
   * @throws CodecConfigError
   */
  constructor(
    readonly dataType: DataType,
    readonly offset?: NumericScalar,
    readonly scale?: NumericScalar,
  ) {
    const domain = numericDomain(dataType, NAME);
    const zero: NumericScalar = typeof dataType.defaultFill === "bigint" ? 0n : 0;
    const one: NumericScalar = typeof dataType.defaultFill === "bigint" ? 1n : 1;
    const o = offset ?? zero;
    const s = scale ?? one;
    for (const [field, value] of [
      ["offset", o],
      ["scale", s],
    ] as const) {
      if (typeof value === "number" && !Number.isFinite(value)) {
        throw new CodecConfigError(`${NAME}: "${field}" must be finite, got ${value}`);
      }
    }
    if (s === 0 || s === 0n) {
      throw new CodecConfigError(`${NAME}: "scale" must not be 0 (decoding divides by it)`);
    }
    this.arithmetic =
      domain.kind === "integer" ? integerArithmetic(domain, o, s) : floatArithmetic(domain, o, s);
  }

  /**
   * Builds the codec from `{offset?, scale?}` (values in the fill value encoding of the chunks'
   * data type) for chunks of `spec`, checking that the fill value encodes.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec: ChunkSpec): ScaleOffsetCodec {
    const extra = Object.keys(configuration).filter((key) => key !== "offset" && key !== "scale");
    if (extra.length > 0) {
      throw new CodecConfigError(
        `${NAME}: unknown configuration field(s) ${extra.map((k) => `"${k}"`).join(", ")}; only "offset" and "scale" are allowed`,
      );
    }
    const parse = (field: string): NumericScalar | undefined => {
      const json = configuration[field];
      if (json === undefined) return undefined;
      try {
        return spec.dataType.parseFill(json, 3) as NumericScalar;
      } catch (error) {
        throw new CodecConfigError(
          `${NAME}: "${field}" is ${formatValue(json)}, not a ${spec.dataType.name} value in fill value encoding`,
          { cause: error },
        );
      }
    };
    const codec = new ScaleOffsetCodec(spec.dataType, parse("offset"), parse("scale"));
    codec.encodedSpec(spec);
    return codec;
  }

  toJson(): NamedConfig {
    const configuration: JsonObject = {};
    if (this.offset !== undefined)
      configuration.offset = this.dataType.fillToJson(this.offset, 3) as JsonValue;
    if (this.scale !== undefined)
      configuration.scale = this.dataType.fillToJson(this.scale, 3) as JsonValue;
    return { name: NAME, configuration, mustUnderstand: true };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fill = spec.dataType.coerce(spec.fillValue ?? spec.dataType.defaultFill) as NumericScalar;
    try {
      return { ...spec, shape: [...spec.shape], fillValue: this.arithmetic.encode(fill) };
    } catch (error) {
      if (!(error instanceof CastFailure)) throw error;
      throw new CodecConfigError(
        `${NAME}: the fill value ${String(fill)} cannot be encoded: ${error.reason}`,
      );
    }
  }

  encode(chunk: Chunk, spec: ChunkSpec): Chunk {
    return this.map(chunk, spec.shape, this.arithmetic.encode, (where, reason) => {
      return new ScaleOffsetError(`${NAME}: cannot encode ${where}: ${reason}`);
    });
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const expected = product(spec.shape);
    if (product(chunk.shape) !== expected) {
      throw new DecodeError(
        `${NAME}: the encoded chunk has ${product(chunk.shape)} elements; the chunk needs ${expected}`,
      );
    }
    return this.map(chunk, spec.shape, this.arithmetic.decode, (where, reason) => {
      return new DecodeError(`${NAME}: cannot decode ${where}: ${reason}`);
    });
  }

  private map(
    chunk: Chunk,
    shape: readonly number[],
    fn: (value: NumericScalar) => NumericScalar,
    fail: (where: string, reason: string) => Error,
  ): Chunk {
    const type = this.dataType;
    const input = toCOrder(chunk, (n) => type.create(n), type.lanes).data;
    const n = product(shape);
    const out = type.create(n);
    let i = 0;
    try {
      for (; i < n; i++) type.setElement(out, i, fn(type.getElement(input, i) as NumericScalar));
    } catch (error) {
      if (error instanceof CastFailure) throw fail(`element ${i} (C order)`, error.reason);
      throw error;
    }
    return { data: out as Container, shape: [...shape], stride: cOrderStrides(shape) };
  }
}

/** Float arithmetic: each operation in double, rounded to nearest-even in the type. */
function floatArithmetic(
  domain: NumericDomain & { kind: "float" },
  o: NumericScalar,
  s: NumericScalar,
): Arithmetic {
  const offset = Number(o);
  const scale = Number(s);
  const name = domain.dataType.name;
  // A double result of float32 (or narrower) operands rounded once more is the correctly
  // rounded result (53 >= 2 * 24 + 2), so computing in double loses nothing.
  const toType =
    name === "float64"
      ? (v: number) => v
      : name === "float32"
        ? Math.fround
        : (elementCast(domain, "nearest-even", undefined) as (v: number) => number);
  const round = (v: number, operand: number): number => {
    const r = toType(v);
    if (!Number.isFinite(r) && Number.isFinite(operand)) {
      throw new CastFailure(`the result overflows ${name}`);
    }
    return r;
  };
  return {
    encode: (x) => round(round((x as number) - offset, x as number) * scale, x as number),
    decode: (y) => round(round((y as number) / scale, y as number) + offset, y as number),
  };
}

/** Integer arithmetic: exact, with every intermediate result checked against the range. */
function integerArithmetic(
  domain: NumericDomain & { kind: "integer" },
  o: NumericScalar,
  s: NumericScalar,
): Arithmetic {
  const { min, max, big } = domain;
  const name = domain.dataType.name;
  const check = (v: bigint): bigint => {
    if (v < min || v > max) {
      throw new CastFailure(`the result ${v} is outside the range ${min}..${max} of ${name}`);
    }
    return v;
  };
  if (big) {
    const offset = BigInt(o);
    const scale = BigInt(s);
    return {
      encode: (x) => check(check((x as bigint) - offset) * scale),
      decode: (y) => check(check((y as bigint) / scale) + offset),
    };
  }
  const offset = Number(o);
  const scale = Number(s);
  const lo = Number(min);
  const hi = Number(max);
  // Up to 32-bit operands, differences are exact doubles and any product beyond 2^53 is far
  // out of range, so number arithmetic decides exactly.
  const inRange = (v: number): number => {
    if (v < lo || v > hi)
      throw new CastFailure(`the result ${v} is outside the range ${lo}..${hi} of ${name}`);
    return v;
  };
  return {
    encode: (x) => inRange(inRange((x as number) - offset) * scale) + 0,
    decode: (y) => inRange(Math.trunc((y as number) / scale) + offset) + 0,
  };
}

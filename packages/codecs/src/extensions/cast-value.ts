import { formatValue, nameErrorClass } from "@z/errors";
import type { DataType, JsonObject, JsonValue, NamedConfig } from "@z/metadata";
import type { Chunk, Container } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { CodecConfigError, CodecError, DecodeError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import {
  CastFailure,
  type ElementCast,
  elementCast,
  type OutOfRange,
  type RoundingMode,
} from "./cast.js";
import { NAME, parseCastValueOptions } from "./cast-value-options.js";
import { type NumericDomain, type NumericScalar, numericDomain } from "./numeric-domain.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    CastValueError: CastValueError;
  }
}

/**
 * A value `cast_value` cannot encode: NaN or ±Infinity for a type without them, or a value out
 * of range when `out_of_range` is not set.
 * @category Errors
 */
export class CastValueError extends CodecError {
  static {
    nameErrorClass(CastValueError, "CastValueError");
  }
}

/** The `cast_value` configuration, parsed. */
export interface CastValueOptions {
  /** The data type stored (the encoded side). */
  dataType: DataType;
  /** How inexact values are rounded (default `"nearest-even"`). */
  rounding?: RoundingMode;
  /** What happens to values beyond the range (default: they are errors). */
  outOfRange?: "clamp" | "wrap";
  /** Explicit `[input, output]` pairs, JSON as in the configuration, per direction. */
  scalarMap?: { encode?: [JsonValue, JsonValue][]; decode?: [JsonValue, JsonValue][] };
}

/** One direction of the cast: the scalar map first, then rounding and range rules. */
interface Direction {
  from: DataType;
  to: DataType;
  map: Map<NumericScalar, NumericScalar>;
  cast: ElementCast;
}

/**
 * The `cast_value` codec (zarr-extensions `codecs/cast_value`): stores each element converted
 * by value to `data_type` and converts it back on decode. Values the target holds exactly are
 * kept; others are rounded by `rounding`, then clamped or wrapped by `out_of_range` (or
 * refused); `scalar_map` pairs take precedence. The fill value goes through the same cast and
 * must survive the round trip.
 */
export class CastValueCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;
  readonly rounding: RoundingMode;
  private readonly forward: Direction;
  private readonly backward: Direction;

  /**
   * @param decodedType the data type of the chunks it gets (the array's, or the previous codec's)
   * @throws CodecConfigError
   */
  constructor(
    readonly decodedType: DataType,
    readonly options: CastValueOptions,
  ) {
    this.rounding = options.rounding ?? "nearest-even";
    const source = numericDomain(decodedType, NAME);
    const target = numericDomain(options.dataType, NAME);
    if (options.outOfRange === "wrap" && target.kind !== "integer") {
      throw new CodecConfigError(
        `${NAME}: "out_of_range": "wrap" needs an integer "data_type", got ${options.dataType.name}`,
      );
    }
    this.forward = direction(source, target, this.rounding, options, "encode");
    this.backward = direction(target, source, this.rounding, options, "decode");
  }

  /**
   * Builds the codec from its configuration for chunks of `spec`, checking that the fill
   * value survives the round trip.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec: ChunkSpec): CastValueCodec {
    const codec = new CastValueCodec(spec.dataType, parseCastValueOptions(configuration));
    codec.checkFill(spec.fillValue ?? spec.dataType.defaultFill);
    return codec;
  }

  toJson(): NamedConfig {
    const { dataType, outOfRange, scalarMap } = this.options;
    const configuration: JsonObject = { data_type: dataType.toV3(), rounding: this.rounding };
    if (outOfRange) configuration.out_of_range = outOfRange;
    if (scalarMap) configuration.scalar_map = scalarMap as JsonObject;
    return { name: NAME, configuration, mustUnderstand: true };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fill = spec.dataType.coerce(spec.fillValue ?? spec.dataType.defaultFill) as NumericScalar;
    let fillValue: NumericScalar;
    try {
      fillValue = apply(this.forward, fill);
    } catch (error) {
      throw fillError(fill, error);
    }
    return { shape: [...spec.shape], dataType: this.options.dataType, fillValue };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Chunk {
    return this.convert(chunk, spec.shape, this.forward, (where, reason) => {
      return new CastValueError(`${NAME}: cannot encode ${where}: ${reason}`);
    });
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const expected = product(spec.shape);
    if (product(chunk.shape) !== expected) {
      throw new DecodeError(
        `${NAME}: the encoded chunk has ${product(chunk.shape)} elements; the chunk needs ${expected}`,
      );
    }
    return this.convert(chunk, spec.shape, this.backward, (where, reason) => {
      return new DecodeError(`${NAME}: cannot decode ${where}: ${reason}`);
    });
  }

  /** Checks that the fill value casts both ways and comes back as itself. */
  private checkFill(fill: unknown): void {
    const value = this.decodedType.coerce(fill) as NumericScalar;
    let back: NumericScalar;
    try {
      back = apply(this.backward, apply(this.forward, value));
    } catch (error) {
      throw fillError(value, error);
    }
    const same = Object.is(back, value) || (Number.isNaN(back) && Number.isNaN(value));
    if (!same) {
      throw new CodecConfigError(
        `${NAME}: the fill value ${String(value)} comes back as ${String(back)} after casting to ` +
          `${this.options.dataType.name} and back; choose a fill value the cast keeps, or map it with "scalar_map"`,
      );
    }
  }

  private convert(
    chunk: Chunk,
    shape: readonly number[],
    { from, to, map, cast }: Direction,
    fail: (where: string, reason: string) => Error,
  ): Chunk {
    const input = toCOrder(chunk, (n) => from.create(n), from.lanes).data;
    const n = product(shape);
    const out = to.create(n);
    let i = 0;
    try {
      if (map.size === 0) {
        for (; i < n; i++) to.setElement(out, i, cast(from.getElement(input, i) as NumericScalar));
      } else {
        for (; i < n; i++) {
          const value = from.getElement(input, i) as NumericScalar;
          const mapped = map.get(value);
          to.setElement(out, i, mapped !== undefined ? mapped : cast(value));
        }
      }
    } catch (error) {
      if (error instanceof CastFailure) throw fail(`element ${i} (C order)`, error.reason);
      throw error;
    }
    return { data: out as Container, shape: [...shape], stride: cOrderStrides(shape) };
  }
}

function apply({ map, cast }: Direction, value: NumericScalar): NumericScalar {
  const mapped = map.get(value);
  return mapped !== undefined ? mapped : cast(value);
}

function fillError(fill: NumericScalar, error: unknown): Error {
  if (!(error instanceof CastFailure)) return error as Error;
  return new CodecConfigError(
    `${NAME}: the fill value ${String(fill)} cannot be cast: ${error.reason}; map it with "scalar_map" or change the fill value`,
  );
}

function direction(
  from: NumericDomain,
  to: NumericDomain,
  rounding: RoundingMode,
  options: CastValueOptions,
  which: "encode" | "decode",
): Direction {
  const outOfRange: OutOfRange = options.outOfRange;
  const map = new Map<NumericScalar, NumericScalar>();
  (options.scalarMap?.[which] ?? []).forEach(([input, output], i) => {
    const key = parseScalar(from.dataType, input, `scalar_map.${which}[${i}][0]`);
    const value = parseScalar(to.dataType, output, `scalar_map.${which}[${i}][1]`);
    // Readers use the first pair of a repeated input; Map keys compare NaN equal to NaN.
    if (!map.has(key)) map.set(key, value);
  });
  return {
    from: from.dataType,
    to: to.dataType,
    map,
    cast: elementCast(
      to,
      rounding,
      outOfRange === "wrap" && to.kind !== "integer" ? undefined : outOfRange,
    ),
  };
}

function parseScalar(dataType: DataType, json: JsonValue, where: string): NumericScalar {
  try {
    return dataType.parseFill(json, 3) as NumericScalar;
  } catch (error) {
    throw new CodecConfigError(
      `${NAME}: ${where} is ${formatValue(json)}, not a ${dataType.name} value in fill value encoding`,
      { cause: error },
    );
  }
}

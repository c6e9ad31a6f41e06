import { formatValue } from "@z/errors";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { product } from "@z/ndarray";
import { CodecConfigError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { parseDtype, parseNumber, parseOptionalDtype, requireChunkType } from "./config.js";
import {
  cOrderChunk,
  convertFill,
  type Elements,
  encodedElements,
  flatElements,
} from "./elements.js";
import {
  arithmetic,
  converter,
  NUMERIC_TYPES,
  type NumericType,
  type PythonScalar,
  promoteWithScalar,
  pythonIntInRange,
  type Scalar,
} from "./numpy-types.js";
import type { FilterDtype } from "./types.js";

const NAME = "numcodecs.fixedscaleoffset";

/** One element's trip through the filter, with every type NumPy computes in fixed up front. */
type ElementMap = (value: Scalar) => Scalar;

/**
 * numcodecs' `fixedscaleoffset` filter: encodes `around((x - offset) * scale)` as `astype`
 * and decodes `enc / scale + offset` as `dtype`. The arithmetic happens in the types NumPy 1.x
 * picks for an array and a Python scalar (value-based casting), rounding is half to even, and
 * the final cast wraps or saturates as NumPy's `astype` does.
 */
export class FixedScaleOffsetCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;
  /** The type of the encoded elements (`astype`, defaulting to `dtype`). */
  readonly encoded: FilterDtype;
  private readonly encodeOne: ElementMap;
  private readonly decodeOne: ElementMap;

  constructor(
    readonly offset: number,
    readonly scale: number,
    readonly dtype: FilterDtype,
    astype?: FilterDtype,
  ) {
    this.encoded = astype ?? dtype;
    for (const [field, value] of [
      ["offset", offset],
      ["scale", scale],
    ] as const) {
      if (!Number.isFinite(value)) {
        throw new CodecConfigError(`${NAME}: "${field}" must be a finite number, got ${value}`);
      }
    }
    for (const [field, type] of [
      ["dtype", this.dtype],
      ["astype", this.encoded],
    ] as const) {
      if (type.type.kind === "bool") {
        throw new CodecConfigError(
          `${NAME}: "${field}" must be an integer or float type, got ${formatValue(type.json)}`,
        );
      }
    }
    this.encodeOne = encodeMap(this.dtype.type, this.encoded.type, offset, scale);
    this.decodeOne = decodeMap(this.encoded.type, this.dtype.type, offset, scale);
  }

  /**
   * Builds the codec from `{offset, scale, dtype, astype?}`; with `spec`, checks that `dtype`
   * is the chunks' data type.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec?: ChunkSpec): FixedScaleOffsetCodec {
    const offset = parseNumber(configuration, "offset", NAME);
    const scale = parseNumber(configuration, "scale", NAME);
    const dtype = parseDtype(configuration, "dtype", NAME);
    const astype = parseOptionalDtype(configuration, "astype", NAME);
    if (spec) requireChunkType(NAME, "dtype", dtype, spec.dataType);
    return new FixedScaleOffsetCodec(offset, scale, dtype, astype);
  }

  toJson(): NamedConfig {
    return {
      name: NAME,
      configuration: {
        offset: this.offset,
        scale: this.scale,
        dtype: this.dtype.json,
        astype: this.encoded.json,
      },
      mustUnderstand: true,
    };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fillValue = convertFill(spec, this.encoded.dataType, (one) =>
      this.map(one, this.encodeOne, this.encoded, 1),
    );
    return { shape: [...spec.shape], dataType: this.encoded.dataType, fillValue };
  }

  encode(chunk: Chunk): Chunk {
    const n = product(chunk.shape);
    const input = flatElements(chunk, this.dtype.dataType);
    return cOrderChunk(this.map(input, this.encodeOne, this.encoded, n), chunk.shape);
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const n = product(spec.shape);
    const input = encodedElements(chunk, this.encoded.dataType, n, NAME);
    return cOrderChunk(this.map(input, this.decodeOne, this.dtype, n), spec.shape);
  }

  private map(input: Elements, fn: ElementMap, to: FilterDtype, n: number): Elements {
    const out = to.dataType.create(n) as unknown as Elements;
    for (let i = 0; i < n; i++) out[i] = fn(input[i]);
    return out;
  }
}

// An integral value beyond the 64-bit range can only have been a Python float (a Python int
// that large would have made NumPy fall back to object arrays).
function pythonScalar(value: number): PythonScalar {
  return { value, isInteger: Number.isInteger(value) && pythonIntInRange(value) };
}

/** `(x - offset) * scale`, rounded, cast to the encoded type. */
function encodeMap(from: NumericType, to: NumericType, offset: number, scale: number): ElementMap {
  const subType = promoteWithScalar(from, pythonScalar(offset));
  const mulType = promoteWithScalar(subType, pythonScalar(scale));
  const sub = arithmetic(subType);
  const mul = arithmetic(mulType);
  const offsetValue = sub.fromPython(offset);
  const scaleValue = mul.fromPython(scale);
  const toSub = converter(from, subType);
  const toMul = converter(subType, mulType);
  const toOut = converter(mulType, to);
  if (from.name === "float64" && subType.name === "float64" && mulType.name === "float64") {
    // The common case, without the indirections.
    const o = offsetValue as number;
    const s = scaleValue as number;
    const around = mul.around as (v: number) => number;
    return (x) => toOut(around(((x as number) - o) * s));
  }
  return (x) => toOut(mul.around(mul.mul(toMul(sub.sub(toSub(x), offsetValue)), scaleValue)));
}

/** `enc / scale + offset`, cast to the decoded type. Integer division is true division. */
function decodeMap(from: NumericType, to: NumericType, offset: number, scale: number): ElementMap {
  const promoted = promoteWithScalar(from, pythonScalar(scale));
  const divType = promoted.kind === "float" ? promoted : NUMERIC_TYPES.float64;
  const addType = promoteWithScalar(divType, pythonScalar(offset));
  const div = arithmetic(divType);
  const add = arithmetic(addType);
  const scaleValue = div.fromPython(scale);
  const offsetValue = add.fromPython(offset);
  const toDiv = converter(from, divType);
  const toAdd = converter(divType, addType);
  const toOut = converter(addType, to);
  if (divType.name === "float64" && addType.name === "float64") {
    // The common case (an integer or float64 encoding): plain double arithmetic.
    const s = scaleValue as number;
    const o = offsetValue as number;
    return (x) => toOut(Number(x) / s + o);
  }
  return (x) => toOut(add.add(toAdd(div.div(toDiv(x), scaleValue)), offsetValue));
}

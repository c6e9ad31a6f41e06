import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { product } from "@z/ndarray";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { parseDtype, parseOptionalDtype, requireChunkType } from "./config.js";
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
  isBigIntType,
  type NumericType,
  promoteTypes,
} from "./numpy-types.js";
import type { FilterDtype } from "./types.js";

const NAME = "numcodecs.delta";

/**
 * numcodecs' `delta` filter: the first element, then the differences between neighbours, in
 * the chunk flattened in C order, stored as `astype`. Differences wrap around in integer types
 * (and are `!=` for bool, as `numpy.diff` computes them); decoding is NumPy's `cumsum` into
 * `dtype`, accumulated in the promotion of `astype` and `dtype` (so bool with bool ORs, as
 * numcodecs does).
 */
export class DeltaCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;
  /** The type of the encoded elements (`astype`, defaulting to `dtype`). */
  readonly encoded: FilterDtype;

  constructor(
    readonly dtype: FilterDtype,
    astype?: FilterDtype,
  ) {
    this.encoded = astype ?? dtype;
  }

  /**
   * Builds the codec from `{dtype, astype?}`; with `spec`, checks that `dtype` is the chunks'
   * data type.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec?: ChunkSpec): DeltaCodec {
    const dtype = parseDtype(configuration, "dtype", NAME);
    const astype = parseOptionalDtype(configuration, "astype", NAME);
    if (spec) requireChunkType(NAME, "dtype", dtype, spec.dataType);
    return new DeltaCodec(dtype, astype);
  }

  toJson(): NamedConfig {
    // numcodecs' get_config always writes astype, and zarr-python 3 requires it.
    return {
      name: NAME,
      configuration: { dtype: this.dtype.json, astype: this.encoded.json },
      mustUnderstand: true,
    };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fillValue = convertFill(spec, this.encoded.dataType, (one) => {
      const out = this.encoded.dataType.create(1) as unknown as Elements;
      deltaEncode(one, this.dtype.type, out, this.encoded.type, 1);
      return out;
    });
    return { shape: [...spec.shape], dataType: this.encoded.dataType, fillValue };
  }

  encode(chunk: Chunk): Chunk {
    const n = product(chunk.shape);
    const input = flatElements(chunk, this.dtype.dataType);
    const out = this.encoded.dataType.create(n) as unknown as Elements;
    deltaEncode(input, this.dtype.type, out, this.encoded.type, n);
    return cOrderChunk(out, chunk.shape);
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const n = product(spec.shape);
    const input = encodedElements(chunk, this.encoded.dataType, n, NAME);
    const out = this.dtype.dataType.create(n) as unknown as Elements;
    deltaDecode(input, this.encoded.type, out, this.dtype.type, n);
    return cOrderChunk(out, spec.shape);
  }
}

// TypedArray stores wrap integers and round float32/float64 exactly as NumPy's arithmetic does;
// bool and float16 (computed via float32 by NumPy) need the element-wise model.
function storesMatchNumpy(type: NumericType): boolean {
  return type.kind !== "bool" && !(type.kind === "float" && type.bits === 16);
}

/** Delta-encodes `n` elements of type `from` into `out` of type `to`. */
function deltaEncode(
  input: Elements,
  from: NumericType,
  out: Elements,
  to: NumericType,
  n: number,
): void {
  if (n === 0) return;
  if (from.name === to.name && storesMatchNumpy(from)) {
    out[0] = input[0];
    if (isBigIntType(from)) {
      for (let i = 1; i < n; i++) out[i] = (input[i] as bigint) - (input[i - 1] as bigint);
    } else {
      for (let i = 1; i < n; i++) out[i] = (input[i] as number) - (input[i - 1] as number);
    }
    return;
  }
  const { sub } = arithmetic(from);
  const convert = converter(from, to);
  out[0] = convert(input[0]);
  for (let i = 1; i < n; i++) out[i] = convert(sub(input[i], input[i - 1]));
}

/** Delta-decodes `n` elements of type `from` into `out` of type `to` (NumPy's `cumsum`). */
function deltaDecode(
  input: Elements,
  from: NumericType,
  out: Elements,
  to: NumericType,
  n: number,
): void {
  if (n === 0) return;
  if (from.name === to.name && storesMatchNumpy(from)) {
    out[0] = input[0];
    if (isBigIntType(from)) {
      for (let i = 1; i < n; i++) out[i] = (out[i - 1] as bigint) + (input[i] as bigint);
    } else {
      for (let i = 1; i < n; i++) out[i] = (out[i - 1] as number) + (input[i] as number);
    }
    return;
  }
  // NumPy accumulates in the promoted type and casts each partial sum into the output.
  const working = promoteTypes(from, to);
  const { add } = arithmetic(working);
  const toWorking = converter(from, working);
  const toOutput = converter(working, to);
  let sum = toWorking(input[0]);
  out[0] = toOutput(sum);
  for (let i = 1; i < n; i++) {
    sum = add(sum, toWorking(input[i]));
    out[i] = toOutput(sum);
  }
}

import type { DataType, JsonObject, NamedConfig } from "@z/metadata";
import { type Chunk, halfToNumber, LITTLE_ENDIAN_HOST, numberToHalf, product } from "@z/ndarray";
import { CodecConfigError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { chunkNumericType, parseInteger } from "./config.js";
import {
  cOrderChunk,
  convertFill,
  type Elements,
  encodedElements,
  flatElements,
} from "./elements.js";

const NAME = "numcodecs.bitround";

/** Mantissa bits of each float width, the most `keepbits` may be. */
const MANTISSA_BITS: Readonly<Record<number, number>> = { 16: 10, 32: 23, 64: 52 };

/**
 * numcodecs' `bitround` filter (lossy): keeps `keepbits` bits of each float's mantissa,
 * rounding to nearest with ties to even, by integer arithmetic on the bit pattern exactly as
 * numcodecs does it (so NaN payloads may round to infinity and the largest values may carry
 * into the exponent, as there). Decoding is the identity.
 */
export class BitRoundCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  private readonly maskBits: number;

  /**
   * @param name the metadata name: `numcodecs.bitround`, or the registered `bitround`
   */
  constructor(
    readonly keepbits: number,
    readonly dataType: DataType,
    readonly name: string = NAME,
  ) {
    const type = chunkNumericType(NAME, dataType);
    if (type.kind !== "float") {
      throw new CodecConfigError(
        `${name}: only float16, float32 and float64 chunks can be bit-rounded, got ${dataType.name}`,
      );
    }
    const mantissa = MANTISSA_BITS[type.bits];
    if (!Number.isInteger(keepbits) || keepbits < 0 || keepbits > mantissa) {
      throw new CodecConfigError(
        `${name}: "keepbits" must be an integer from 0 to ${mantissa} (the mantissa bits of ${dataType.name}), got ${keepbits}`,
      );
    }
    this.maskBits = mantissa - keepbits;
  }

  /**
   * Builds the codec from `{keepbits}` for chunks of `spec` (whose float type bounds it).
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec: ChunkSpec, name = NAME): BitRoundCodec {
    const keepbits = parseInteger(configuration, "keepbits", name, 0, Number.MAX_SAFE_INTEGER);
    return new BitRoundCodec(keepbits, spec.dataType, name);
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: { keepbits: this.keepbits }, mustUnderstand: true };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fillValue = convertFill(spec, spec.dataType, (one) => this.round(one, 1));
    return { ...spec, shape: [...spec.shape], fillValue };
  }

  encode(chunk: Chunk): Chunk {
    const n = product(chunk.shape);
    return cOrderChunk(this.round(flatElements(chunk, this.dataType), n), chunk.shape);
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const n = product(spec.shape);
    const input = encodedElements(chunk, this.dataType, n, NAME);
    const data = input.length === n ? input : (input as unknown as Float64Array).subarray(0, n);
    return cOrderChunk(data, spec.shape);
  }

  private round(input: Elements, n: number): Elements {
    const out = this.dataType.create(n) as Float32Array | Float64Array;
    out.set((input as unknown as Float64Array).subarray(0, n));
    const m = this.maskBits;
    if (m === 0) return out as unknown as Elements;
    if (out instanceof Float64Array) roundFloat64(out, m);
    else if (this.dataType.itemSize === 4)
      roundInt32(new Int32Array(out.buffer, out.byteOffset, n), m);
    else roundFloat16(out, n, m);
    return out as unknown as Elements;
  }
}

/** Rounds 32-bit patterns in place (`b += ((b >> m) & 1) + 2^(m-1) - 1; b &= mask`). */
function roundInt32(bits: Int32Array, m: number): void {
  const halfQuantum = (1 << (m - 1)) - 1;
  const mask = -1 << m;
  for (let i = 0; i < bits.length; i++) {
    const b = bits[i];
    bits[i] = ((b + ((b >> m) & 1) + halfQuantum) | 0) & mask;
  }
}

/** The same on 64-bit patterns, as two 32-bit halves with a carry. */
function roundFloat64(values: Float64Array, m: number): void {
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  const [lo, hi] = LITTLE_ENDIAN_HOST ? [0, 1] : [1, 0];
  // The increment is 2^(m-1) - 1, plus one when bit m is set: split both into 32-bit halves.
  const halfQuantum = 2 ** (m - 1) - 1;
  const incHigh0 = Math.floor(halfQuantum / 2 ** 32);
  const incLow0 = halfQuantum - incHigh0 * 2 ** 32;
  const incHigh1 = Math.floor((halfQuantum + 1) / 2 ** 32);
  const incLow1 = halfQuantum + 1 - incHigh1 * 2 ** 32;
  const loMask = m >= 32 ? 0 : (-1 << m) >>> 0;
  const hiMask = m >= 32 ? (-1 << (m - 32)) >>> 0 : 0xffffffff;
  const bitShift = m >= 32 ? m - 32 : m;
  const bitInHigh = m >= 32;
  for (let i = 0; i < words.length; i += 2) {
    const low = words[i + lo];
    const high = words[i + hi];
    const bit = ((bitInHigh ? high : low) >>> bitShift) & 1;
    const sumLow = low + (bit ? incLow1 : incLow0);
    const carry = sumLow >= 2 ** 32 ? 1 : 0;
    words[i + lo] = sumLow & loMask;
    words[i + hi] = (high + (bit ? incHigh1 : incHigh0) + carry) & hiMask;
  }
}

/** The same on 16-bit patterns of float16 values (held as numbers). */
function roundFloat16(values: Float32Array | Float64Array, n: number, m: number): void {
  const halfQuantum = (1 << (m - 1)) - 1;
  const mask = (-1 << m) & 0xffff;
  for (let i = 0; i < n; i++) {
    const b = numberToHalf(values[i]);
    values[i] = halfToNumber((b + ((b >> m) & 1) + halfQuantum) & 0xffff & mask);
  }
}

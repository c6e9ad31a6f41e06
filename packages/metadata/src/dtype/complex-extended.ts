import { formatValue } from "@z/errors";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { type Complex, Complex64Array, complex64, complex128 } from "./complex.js";
import { complexParts, isComplex } from "./complex-parts.js";
import { MiniFloatCodec } from "./minifloat.js";
import { type MiniFloatFormat, miniFloatFormats } from "./minifloat-format.js";
import { noV2Form, sameStoredFloat } from "./minifloat-internal.js";
import { floatToJson } from "./numeric-json.js";
import type { DataType, Endian, ZarrFormat } from "./types.js";
import { ValueTypeError } from "./value-errors.js";

/** IEEE half precision as a format of the generic codec (only the complex type uses it so). */
const float16Format: MiniFloatFormat = {
  name: "float16",
  bits: 16,
  exponentBits: 5,
  mantissaBits: 10,
  bias: 15,
  specials: "ieee",
};

/**
 * A `complex_<float>` data type of the zarr-extensions registry whose parts are a small float
 * (`complex_float16`, `complex_bfloat16`, `complex_float8_*`, `complex_float6_*`,
 * `complex_float4_e2m1fn`). Held in a {@link Complex64Array} (interleaved float32 re, im);
 * stored as the real part's code followed by the imaginary part's, each as its float type.
 */
export class ComplexMiniFloatType implements DataType<Complex, Complex64Array> {
  readonly kind = "complex";
  readonly lanes = 2;
  readonly name: string;
  readonly itemSize: number;
  readonly endianSensitive: boolean;
  readonly defaultFill: Complex;
  /** The codec of one part. */
  readonly part: MiniFloatCodec;

  constructor(format: MiniFloatFormat) {
    this.part = new MiniFloatCodec(format);
    this.name = `complex_${format.name}`;
    this.itemSize = 2 * this.part.byteSize;
    this.endianSensitive = this.part.byteSize > 1;
    const zero = this.part.toNumber(0);
    this.defaultFill = { re: zero, im: zero };
  }

  create(length: number): Complex64Array {
    const out = Complex64Array.ofCount(length);
    if (this.defaultFill.re !== 0) out.fill(this.defaultFill.re);
    return out;
  }

  toV3(): JsonValue {
    return this.name;
  }

  toV2(): JsonValue {
    return noV2Form(this.name);
  }

  encode(data: Complex64Array, endian: Endian): Uint8Array {
    const out = new Uint8Array((data.length / 2) * this.itemSize);
    this.part.encodeInto(data, out, endian);
    return out;
  }

  decode(bytes: Uint8Array, length: number, endian: Endian): Complex64Array {
    const out = Complex64Array.ofCount(length);
    this.part.decodeInto(bytes, out, endian);
    return out;
  }

  /** `[re, im]`, each part a fill value of the part's float type. @throws FillValueError */
  parseFill(json: JsonValue, _format: ZarrFormat): Complex {
    if (!Array.isArray(json) || json.length !== 2) {
      throw new FillValueError(
        `Invalid ${this.name} fill value ${formatValue(json)}: expected [real, imaginary], e.g. [1.5, 0]`,
      );
    }
    return {
      re: this.part.parseFill(json[0], this.name),
      im: this.part.parseFill(json[1], this.name),
    };
  }

  fillToJson(value: Complex): JsonValue {
    return [this.part.fillToJson(value.re), this.part.fillToJson(value.im)];
  }

  /**
   * `{re, im}`, `[re, im]` or a real number (imaginary part 0); each part is rounded to the
   * part type, and refused (a {@link ValueTypeError}) where the part type cannot hold it.
   */
  coerce(value: unknown): Complex {
    const { re, im } = complexParts(value, this.name);
    const checkedRe = this.part.check(re);
    const checkedIm = this.part.check(im);
    if (typeof checkedRe === "string")
      throw new ValueTypeError(value, this.name, `real part: ${checkedRe}`);
    if (typeof checkedIm === "string") {
      throw new ValueTypeError(value, this.name, `imaginary part: ${checkedIm}`);
    }
    return { re: checkedRe, im: checkedIm };
  }

  isScalar(value: unknown): boolean {
    return isComplex(value);
  }

  fill(data: Complex64Array, value: Complex, start = 0, end = data.length >> 1): void {
    for (let i = start; i < end; i++) data.setComplex(i, value.re, value.im);
  }

  isAllFill(data: Complex64Array, value: Complex): boolean {
    const re = this.part.round(value.re);
    const im = this.part.round(value.im);
    for (let i = 0; i < data.length; i += 2) {
      if (!sameStoredFloat(data[i], re) || !sameStoredFloat(data[i + 1], im)) return false;
    }
    return true;
  }

  getElement(data: Complex64Array, index: number): Complex {
    return data.getComplex(index);
  }

  setElement(data: Complex64Array, index: number, value: Complex): void {
    data.setComplex(index, value.re, value.im);
  }

  toJsonElement(value: Complex): JsonValue {
    return [floatToJson(value.re), floatToJson(value.im)];
  }
}

/**
 * The same data type as `base` under another v3 name (`complex_float32` is `complex64`,
 * `complex_float64` is `complex128`: same container, bytes and fill values).
 */
function renamed<T extends DataType>(base: T, name: string): T {
  const alias = Object.create(base) as T;
  Object.defineProperty(alias, "name", { value: name, enumerable: true });
  Object.defineProperty(alias, "toV3", { value: () => name });
  return alias;
}

/** `complex_float32`: the registry's name for `complex64` (two float32 parts). */
export const complex_float32: DataType = renamed(complex64 as DataType, "complex_float32");
/** `complex_float64`: the registry's name for `complex128` (two float64 parts). */
export const complex_float64: DataType = renamed(complex128 as DataType, "complex_float64");

/** Every `complex_*` type of the registry: the two renamed ones and the small-float ones. */
export const complexExtensionDataTypes: readonly DataType[] = [
  complex_float32,
  complex_float64,
  new ComplexMiniFloatType(float16Format) as DataType,
  ...Object.values(miniFloatFormats).map((f) => new ComplexMiniFloatType(f) as DataType),
];

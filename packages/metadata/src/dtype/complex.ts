import { formatValue } from "@z/errors";
import { bytesOf, needsSwap, swapBytesInPlace } from "@z/ndarray";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { complexParts, isComplex } from "./complex-parts.js";
import { floatFillToJson, floatToJson, parseFloatFill } from "./numeric-json.js";
import type { DataType, Endian, ZarrFormat } from "./types.js";
import { ValueTypeError } from "./value-errors.js";

/** One complex number: the element type of `complex64` and `complex128` arrays. */
export interface Complex {
  /** The real part. */
  re: number;
  /** The imaginary part. */
  im: number;
}

/** Accessors shared by the two complex containers (a TypedArray of interleaved re, im). */
export interface ComplexAccessors {
  /** The number of complex elements (half the TypedArray length). */
  readonly count: number;
  /** The real part of element `index`. */
  real(index: number): number;
  /** The imaginary part of element `index`. */
  imag(index: number): number;
  /** Element `index` as `{re, im}`. */
  getComplex(index: number): Complex;
  /** Sets element `index`. */
  setComplex(index: number, re: number, im?: number): void;
  /** The elements as an array of `{re, im}`. */
  toComplexArray(): Complex[];
}

/**
 * The container of `complex64` arrays: a Float32Array holding real and imaginary parts
 * interleaved (`[re0, im0, re1, im1, ...]`, the memory layout of NumPy and C), so every
 * TypedArray operation and copy kernel works on it unchanged, with complex accessors on top.
 * Its `length` counts float slots; `count` counts complex elements.
 *
 * ```ts
 * const z = Complex64Array.ofCount(2);
 * z.setComplex(1, 1.5, -2);
 * z.getComplex(1); // {re: 1.5, im: -2}
 * ```
 */
export class Complex64Array extends (withComplexAccessors(
  Float32Array,
) as unknown as ComplexArrayClass<Float32Array>) {}

/** The container of `complex128` arrays: like {@link Complex64Array}, over a Float64Array. */
export class Complex128Array extends (withComplexAccessors(
  Float64Array,
) as unknown as ComplexArrayClass<Float64Array>) {}

/** The class of a complex container over the TypedArray `T`. */
export interface ComplexArrayClass<T> {
  /** A container of `length` parts (half as many complex elements). */
  new (length: number): T & ComplexAccessors;
  /** A container viewing `length` parts of a buffer. */
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): T & ComplexAccessors;
  /** A zeroed container of `count` complex elements. */
  ofCount(count: number): T & ComplexAccessors;
  /** A container holding the given complex numbers. */
  fromComplex(values: Iterable<Complex>): T & ComplexAccessors;
  /** Bytes per part. */
  readonly BYTES_PER_ELEMENT: number;
}

/** The complex accessors over a Float32Array or Float64Array class (one definition for both). */
function withComplexAccessors<B extends Float32ArrayConstructor | Float64ArrayConstructor>(
  Base: B,
) {
  // TypedArray constructors are not mixin-shaped to TypeScript; the cast keeps `this[i]` typed.
  const TypedBase = Base as unknown as Float64ArrayConstructor;
  return class extends TypedBase implements ComplexAccessors {
    get count(): number {
      return this.length >> 1;
    }
    real(index: number): number {
      return this[2 * index];
    }
    imag(index: number): number {
      return this[2 * index + 1];
    }
    getComplex(index: number): Complex {
      return { re: this[2 * index], im: this[2 * index + 1] };
    }
    setComplex(index: number, re: number, im = 0): void {
      this[2 * index] = re;
      this[2 * index + 1] = im;
    }
    toComplexArray(): Complex[] {
      return Array.from({ length: this.count }, (_, i) => this.getComplex(i));
    }
    /** A zeroed container of `count` complex elements. */
    static ofCount<T>(this: new (length: number) => T, count: number): T {
      return new this(2 * count);
    }
    /** A container holding the given complex numbers. */
    static fromComplex<T extends ComplexAccessors>(
      this: new (
        length: number,
      ) => T,
      values: Iterable<Complex>,
    ): T {
      const items = [...values];
      const out = new this(2 * items.length);
      for (let i = 0; i < items.length; i++) out.setComplex(i, items[i].re, items[i].im);
      return out;
    }
  };
}

type ComplexContainer = Complex64Array | Complex128Array;

/** Whether a finite number rounds to ±Infinity as a float32. */
const overflowsFloat32 = (n: number) => Number.isFinite(n) && !Number.isFinite(Math.fround(n));

/** Equal as stored values: NaN equals NaN, and -0 differs from 0 (a -0 must not be dropped as fill). */
const sameFloat = (a: number, b: number) =>
  a === b ? a !== 0 || 1 / a === 1 / b : Number.isNaN(a) && Number.isNaN(b);

class ComplexType implements DataType<Complex, ComplexContainer> {
  readonly kind = "complex";
  readonly lanes = 2;
  readonly endianSensitive = true;
  readonly defaultFill: Complex = { re: 0, im: 0 };
  /** Bytes of one part (4 or 8). */
  private readonly partSize: number;
  private readonly ctor: typeof Complex64Array | typeof Complex128Array;

  constructor(
    readonly name: "complex64" | "complex128",
    readonly itemSize: 8 | 16,
  ) {
    this.partSize = itemSize / 2;
    this.ctor = itemSize === 8 ? Complex64Array : Complex128Array;
  }

  create(length: number): ComplexContainer {
    return new this.ctor(2 * length);
  }

  toV3(): JsonValue {
    return this.name;
  }

  toV2(endian: Endian): JsonValue {
    return `${endian === "big" ? ">" : "<"}c${this.itemSize}`;
  }

  encode(data: ComplexContainer, endian: Endian): Uint8Array {
    if (!needsSwap(endian, this.partSize)) return bytesOf(data);
    const out = bytesOf(data).slice();
    swapBytesInPlace(out, this.partSize);
    return out;
  }

  decode(bytes: Uint8Array, length: number, endian: Endian): ComplexContainer {
    const size = this.partSize;
    const swap = needsSwap(endian, size);
    const source =
      swap || bytes.byteOffset % size !== 0 ? bytes.slice(0, length * this.itemSize) : bytes;
    if (swap) swapBytesInPlace(source, size);
    return new this.ctor(source.buffer as ArrayBuffer, source.byteOffset, 2 * length);
  }

  /** `[re, im]`, each part a number, `"NaN"`, `"Infinity"`, `"-Infinity"` or a hex bit pattern. */
  parseFill(json: JsonValue, format: ZarrFormat): Complex {
    if (json === null && format === 2) return this.defaultFill;
    if (format === 2 && typeof json === "number") return { re: this.round(json), im: 0 };
    if (!Array.isArray(json) || json.length !== 2) {
      throw new FillValueError(
        `Invalid ${this.name} fill value ${formatValue(json)}: expected [real, imaginary], e.g. [1.5, "NaN"]`,
      );
    }
    const part = (v: JsonValue) => this.round(parseFloatFill(v, this.partSize, this.name));
    return { re: part(json[0]), im: part(json[1]) };
  }

  private round(value: number): number {
    return this.partSize === 4 ? Math.fround(value) : value;
  }

  fillToJson(value: Complex, format: ZarrFormat): JsonValue {
    const part = (v: number) => floatFillToJson(v, this.partSize, format);
    return [part(value.re), part(value.im)];
  }

  /**
   * Accepts `{re, im}` or `[re, im]` with number parts (NaN and ±Infinity included), or a
   * real number, bigint or boolean (imaginary part 0). Anything else, including strings and a
   * `complex64` part too large for float32, is a {@link ValueTypeError}.
   */
  coerce(value: unknown): Complex {
    const { re, im } = complexParts(value, this.name);
    if (this.partSize === 4 && (overflowsFloat32(re) || overflowsFloat32(im))) {
      throw new ValueTypeError(value, this.name, "a part is beyond the largest float32");
    }
    return { re, im };
  }

  isScalar(value: unknown): boolean {
    return isComplex(value);
  }

  fill(data: ComplexContainer, value: Complex, start = 0, end = data.length >> 1): void {
    for (let i = start; i < end; i++) {
      data[2 * i] = value.re;
      data[2 * i + 1] = value.im;
    }
  }

  isAllFill(data: ComplexContainer, value: Complex): boolean {
    const re = this.round(value.re);
    const im = this.round(value.im);
    for (let i = 0; i < data.length; i += 2) {
      if (!sameFloat(data[i], re) || !sameFloat(data[i + 1], im)) return false;
    }
    return true;
  }

  getElement(data: ComplexContainer, index: number): Complex {
    return { re: data[2 * index], im: data[2 * index + 1] };
  }

  setElement(data: ComplexContainer, index: number, value: Complex): void {
    data[2 * index] = value.re;
    data[2 * index + 1] = value.im;
  }

  toJsonElement(value: Complex): JsonValue {
    return [floatToJson(value.re), floatToJson(value.im)];
  }
}

/**
 * `complex64`: two float32 parts per element (8 bytes), v2 `<c8` / `>c8`. Held in a
 * {@link Complex64Array} (interleaved re, im; `lanes` 2); elements are `{re, im}`; the fill
 * value is `[re, im]` in metadata.
 */
export const complex64: DataType<Complex, Complex64Array> = new ComplexType(
  "complex64",
  8,
) as DataType<Complex, Complex64Array>;
/** `complex128`: two float64 parts per element (16 bytes), v2 `<c16`; held in a {@link Complex128Array}. */
export const complex128: DataType<Complex, Complex128Array> = new ComplexType(
  "complex128",
  16,
) as DataType<Complex, Complex128Array>;

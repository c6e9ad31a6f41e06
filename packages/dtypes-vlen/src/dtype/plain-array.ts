import { CodecConfigError } from "@z/codecs";
import type { DataType, DataTypeKind, Endian, JsonValue, ZarrFormat } from "@z/metadata";

/**
 * What the variable-length data types share: elements held in a plain JavaScript array, no
 * fixed-size encoding (a vlen codec serialises them), item size 0.
 */
export abstract class PlainArrayType<S> implements DataType<S, S[]> {
  readonly itemSize = 0;
  readonly lanes = 1;
  readonly endianSensitive = false;
  abstract readonly name: string;
  abstract readonly kind: DataTypeKind;
  abstract readonly defaultFill: S;
  /** The codec to name when someone tries the fixed-size `bytes` codec. */
  protected abstract readonly serializerHint: string;

  /** The value new containers hold. */
  protected abstract emptyValue(): S;

  create(length: number): S[] {
    return new Array<S>(length).fill(this.emptyValue());
  }

  abstract toV3(): JsonValue;

  toV2(_endian: Endian): JsonValue {
    return "|O";
  }

  encode(): Uint8Array {
    throw this.noFixedSizeEncoding();
  }

  decode(): S[] {
    throw this.noFixedSizeEncoding();
  }

  private noFixedSizeEncoding(): CodecConfigError {
    return new CodecConfigError(
      `The ${this.name} data type has no fixed-size encoding, so the "bytes" codec cannot store it; ` +
        `use ${this.serializerHint} as the array-to-bytes codec (serializer: "${this.serializerHint}")`,
    );
  }

  abstract parseFill(json: JsonValue, format: ZarrFormat): S;
  abstract fillToJson(value: S, format: ZarrFormat): JsonValue;
  abstract coerce(value: unknown): S;
  abstract toJsonElement(value: S): JsonValue;

  /** Whether two elements are equal (for fill-value checks). */
  protected equals(a: S, b: S): boolean {
    return a === b;
  }

  fill(data: S[], value: S, start?: number, end?: number): void {
    data.fill(value, start, end);
  }

  isAllFill(data: S[], value: S): boolean {
    for (let i = 0; i < data.length; i++) if (!this.equals(data[i], value)) return false;
    return true;
  }

  getElement(data: S[], index: number): S {
    return data[index];
  }

  setElement(data: S[], index: number, value: S): void {
    data[index] = value;
  }
}

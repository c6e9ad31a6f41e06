// The shared base and length helpers: private to the @z packages. fixed-bytes.ts holds the public side, which the
// package entry re-exports whole.

import { formatValue } from "@z/errors";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json-object.js";
import { checkLimit } from "../limit-check.js";
import { base64ToBytes, bytesToBase64 } from "./base64.js";
import { InvalidDataTypeError } from "./dtype-errors.js";
import type { DataType, DataTypeKind, Endian, ZarrFormat } from "./types.js";
import { ValueTypeError } from "./value-errors.js";

const encoder = new TextEncoder();

/**
 * The `length_bytes` of a v3 `{name, configuration: {length_bytes}}` data type, validated
 * (at most `maxItemSize`, see `metadataLimits`).
 */
export function lengthBytesOf(json: JsonValue, multipleOf = 1): number {
  const name = isJsonObject(json) ? formatValue(json.name) : "data type";
  const config = isJsonObject(json) ? json.configuration : undefined;
  const length = isJsonObject(config) ? config.length_bytes : undefined;
  if (
    typeof length !== "number" ||
    !Number.isInteger(length) ||
    length < 1 ||
    length % multipleOf !== 0
  ) {
    throw new InvalidDataTypeError(
      `data_type ${name}: "configuration.length_bytes" must be a positive integer` +
        (multipleOf > 1 ? ` divisible by ${multipleOf}` : "") +
        `, got ${formatValue(length)}`,
    );
  }
  checkLimit("maxItemSize", length, `data_type ${name}: "configuration.length_bytes"`);
  return length;
}

/**
 * A positive element length parsed from a v2 type string such as `|S5`, checked against
 * `maxItemSize` (see `metadataLimits`) once multiplied by the bytes per unit (4 for `<U`).
 */
export function lengthOfTypestr(digits: string, typestr: string, unitBytes = 1): number {
  const length = Number(digits);
  if (!Number.isSafeInteger(length) || length < 1) {
    throw new InvalidDataTypeError(
      `dtype ${formatValue(typestr)}: the length must be a positive integer`,
    );
  }
  checkLimit("maxItemSize", length * unitBytes, `dtype ${formatValue(typestr)}: the element size`);
  return length;
}

/**
 * What fixed-length byte types share: a container of `length` bytes per element (a Uint8Array
 * with `lanes` = `itemSize` = `length`, so copies are plain byte copies) and elements that are
 * Uint8Arrays. Subclasses decide trailing-NUL handling and the metadata forms.
 */
export abstract class FixedBytesBase implements DataType<Uint8Array, Uint8Array> {
  abstract readonly kind: DataTypeKind;
  abstract readonly name: string;
  readonly lanes: number;
  readonly itemSize: number;
  readonly endianSensitive = false;
  readonly defaultFill: Uint8Array = new Uint8Array(0);

  /** @throws MetadataLimitError for a length beyond `maxItemSize` (before any allocation) */
  constructor(
    /** Bytes per element. */
    readonly length: number,
  ) {
    checkLimit("maxItemSize", length, `The element size of a ${length}-byte type`);
    this.lanes = length;
    this.itemSize = length;
  }

  abstract toV3(): JsonValue;
  abstract toV2(endian: Endian): JsonValue;
  abstract parseFill(json: JsonValue, format: ZarrFormat): Uint8Array;
  abstract fillToJson(value: Uint8Array, format: ZarrFormat): JsonValue;
  /** Element `index`: a copy of its bytes (without trailing NULs for null-terminated types). */
  abstract getElement(data: Uint8Array, index: number): Uint8Array;

  create(length: number): Uint8Array {
    return new Uint8Array(length * this.length);
  }

  encode(data: Uint8Array): Uint8Array {
    return data;
  }

  decode(bytes: Uint8Array, length: number): Uint8Array {
    return bytes.subarray(0, length * this.length);
  }

  /**
   * Accepts a Uint8Array (or other byte view), or a string (stored as UTF-8), of at most
   * `length` bytes; anything else, or a longer value, is a {@link ValueTypeError} (NumPy
   * would cut it silently).
   */
  coerce(value: unknown): Uint8Array {
    let bytes: Uint8Array;
    if (value instanceof Uint8Array) bytes = value;
    else if (ArrayBuffer.isView(value))
      bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    else if (typeof value === "string") bytes = encoder.encode(value);
    else throw new ValueTypeError(value, this.name, "expected a Uint8Array or a string");
    if (bytes.length > this.length) {
      throw new ValueTypeError(
        value,
        this.name,
        `${bytes.length} bytes, more than the ${this.length} an element holds`,
      );
    }
    return bytes;
  }

  fill(data: Uint8Array, value: Uint8Array, start = 0, end = data.length / this.length): void {
    const size = this.length;
    data.fill(0, start * size, end * size);
    if (value.length === 0) return;
    for (let i = start; i < end; i++) data.set(value.subarray(0, size), i * size);
  }

  isAllFill(data: Uint8Array, value: Uint8Array): boolean {
    const size = this.length;
    const padded = new Uint8Array(size);
    padded.set(value.subarray(0, size));
    for (let i = 0; i < data.length; i++) if (data[i] !== padded[i % size]) return false;
    return true;
  }

  setElement(data: Uint8Array, index: number, value: Uint8Array): void {
    const start = index * this.length;
    data.fill(0, start, start + this.length);
    data.set(value.subarray(0, this.length), start);
  }

  /** `{"base64": "..."}`, as `zarr get --json` writes bytes. */
  toJsonElement(value: Uint8Array): JsonValue {
    return { base64: bytesToBase64(value) };
  }

  /** Pads or cuts bytes to the element length, as NumPy does when it casts to `S`/`V`. */
  protected fit(bytes: Uint8Array): Uint8Array {
    if (bytes.length === this.length) return bytes;
    const out = new Uint8Array(this.length);
    out.set(bytes.subarray(0, this.length));
    return out;
  }

  /**
   * The bytes of a base64 fill value. v2 is as lenient as zarr-python 2 (which falls back to
   * NumPy's cast for other values: the number 0 becomes the text "0"); v3 takes base64 only.
   */
  protected parseBase64Fill(json: JsonValue, format: ZarrFormat): Uint8Array {
    const what = `the ${this.name} fill value`;
    if (typeof json === "string") {
      try {
        return base64ToBytes(json, what);
      } catch (error) {
        if (format === 3) throw error;
        return encoder.encode(json);
      }
    }
    if (format === 2 && (typeof json === "number" || typeof json === "bigint"))
      return encoder.encode(String(json));
    throw new FillValueError(`Invalid ${what} ${formatValue(json)}: expected a base64 string`);
  }
}

/** Strips trailing NUL bytes (NumPy's `S` semantics). */
export function stripTrailingNuls(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  return bytes.subarray(0, end);
}

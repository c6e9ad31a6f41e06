import { formatValue } from "@z/errors";
import { FillValueError, type JsonValue, ValueTypeError, type ZarrFormat } from "@z/metadata";
import { fromBase64, toBase64 } from "../layout/base64.js";
import { PlainArrayType } from "./plain-array.js";

const EMPTY = new Uint8Array(0);

/** Whether two byte strings are equal. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A value as a byte string: a Uint8Array, any other ArrayBufferView or an ArrayBuffer. */
export function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value))
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  return undefined;
}

/**
 * The v3 `bytes` data type (zarr-python calls it `variable_length_bytes`; both names read):
 * variable-length byte strings, held in a `Uint8Array[]`. Stored with the `vlen-bytes` codec
 * or the `z.vlen-offsets` layout; in v2 it is an object array (`|O`) with a `vlen-bytes`
 * filter. The fill value is base64 in v3 metadata (an array of byte values also reads).
 */
export class BytesDataType extends PlainArrayType<Uint8Array> {
  readonly name = "bytes";
  readonly kind = "bytes";

  /** Bytes are stored with `vlen-bytes`, as zarr-python does. */
  defaultSerializer() {
    return { name: "vlen-bytes" };
  }
  readonly defaultFill = EMPTY;
  protected readonly serializerHint = "vlen-bytes";

  protected emptyValue(): Uint8Array {
    return EMPTY;
  }

  toV3(): JsonValue {
    return "bytes";
  }

  parseFill(json: JsonValue, format: ZarrFormat): Uint8Array {
    if (format === 2 && (json === null || json === 0)) return EMPTY;
    if (typeof json === "string") {
      const bytes = fromBase64(json);
      if (bytes) return bytes;
    }
    if (
      Array.isArray(json) &&
      json.every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255)
    ) {
      return Uint8Array.from(json as number[]);
    }
    throw new FillValueError(
      `Invalid bytes fill value ${formatValue(json)}: expected a base64 string or an array of byte values`,
    );
  }

  /** Base64 in v3; in v2, `null` for empty bytes (zarr-python 2 has no JSON form for bytes). */
  fillToJson(value: Uint8Array, format: ZarrFormat): JsonValue {
    if (format === 2 && value.length === 0) return null;
    return toBase64(value);
  }

  /**
   * Accepts a Uint8Array, another ArrayBufferView or an ArrayBuffer, or `null` (empty bytes,
   * as numcodecs writes `None`). Anything else (strings and `undefined` included) is a
   * {@link ValueTypeError}.
   */
  coerce(value: unknown): Uint8Array {
    if (value === null) return EMPTY;
    const bytes = asBytes(value);
    if (bytes) return bytes;
    throw new ValueTypeError(value, this.name, "expected a Uint8Array (or null for empty bytes)");
  }

  /** A byte view or ArrayBuffer is one element (blocks of them are plain arrays). */
  isScalar(value: unknown): boolean {
    return asBytes(value) !== undefined;
  }

  protected override equals(a: Uint8Array, b: Uint8Array): boolean {
    return bytesEqual(a, b);
  }

  toJsonElement(value: Uint8Array): JsonValue {
    return { base64: toBase64(value) };
  }
}

/** The `bytes` data type. */
export const bytesDataType = new BytesDataType();

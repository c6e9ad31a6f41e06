import { formatValue } from "@z/errors";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { bytesToBase64 } from "./base64.js";
import { FixedBytesBase } from "./fixed-bytes-internal.js";
import type { ZarrFormat } from "./types.js";

/** How a raw-bytes type is named in v3 metadata. */
export type RawBytesSpelling = "r" | "raw_bytes";

/**
 * Raw bits of fixed size: NumPy's `V` (v2 `|V7`), the v3 core type `r<bits>` (`r56`) and
 * zarr-python 3's `raw_bytes` (`{"length_bytes": 7}`). Held like
 * {@link NullTerminatedBytesType} (a Uint8Array, `lanes` = `length`); elements are Uint8Arrays
 * of exactly `length` bytes (trailing zeros kept). Fill values: base64 (v2 and `raw_bytes`) or
 * a list of byte values (`r<bits>`, as the v3 spec writes them).
 */
export class RawBytesType extends FixedBytesBase {
  readonly kind = "raw";
  readonly name: string;
  override readonly defaultFill: Uint8Array;

  constructor(
    length: number,
    /** Which v3 name this type writes: `r<bits>` or `raw_bytes`. */
    readonly spelling: RawBytesSpelling = "raw_bytes",
  ) {
    super(length);
    this.defaultFill = new Uint8Array(length);
    this.name = spelling === "r" ? `r${length * 8}` : `raw_bytes(${length})`;
  }

  toV3(): JsonValue {
    return this.spelling === "r"
      ? this.name
      : { name: "raw_bytes", configuration: { length_bytes: this.length } };
  }

  toV2(): JsonValue {
    return `|V${this.length}`;
  }

  parseFill(json: JsonValue, format: ZarrFormat): Uint8Array {
    if (json === null && format === 2) return new Uint8Array(this.length);
    if (format === 2 && json === 0) return new Uint8Array(this.length);
    let bytes: Uint8Array;
    if (Array.isArray(json)) {
      if (!json.every((b) => typeof b === "number" && Number.isInteger(b) && b >= 0 && b <= 255)) {
        throw new FillValueError(
          `Invalid ${this.name} fill value ${formatValue(json)}: expected byte values 0-255`,
        );
      }
      bytes = Uint8Array.from(json as number[]);
    } else {
      bytes = this.parseBase64Fill(json, format);
    }
    if (format === 3 && bytes.length !== this.length) {
      throw new FillValueError(
        `Invalid ${this.name} fill value: ${bytes.length} bytes where an element has exactly ${this.length}`,
      );
    }
    return this.fit(bytes).slice();
  }

  fillToJson(value: Uint8Array, format: ZarrFormat): JsonValue {
    const bytes = this.fit(value);
    return format === 3 && this.spelling === "r" ? Array.from(bytes) : bytesToBase64(bytes);
  }

  getElement(data: Uint8Array, index: number): Uint8Array {
    const start = index * this.length;
    return data.slice(start, start + this.length);
  }
}

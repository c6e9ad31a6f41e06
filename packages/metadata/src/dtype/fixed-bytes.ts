import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { bytesToBase64 } from "./base64.js";
import { FixedBytesBase, lengthOfTypestr, stripTrailingNuls } from "./fixed-bytes-internal.js";
import type { ZarrFormat } from "./types.js";

/**
 * Fixed-length, null-terminated byte strings: NumPy's `S` (v2 `|S5`) and v3
 * `null_terminated_bytes` (`{"length_bytes": 5}`). Held in one Uint8Array of `length` bytes per
 * element (`lanes` = `length`): copies are byte copies and a chunk decodes without any copy.
 * Elements are Uint8Arrays without their trailing NULs, as NumPy returns them; a string passed
 * to `set` is stored as UTF-8. Fill values are base64 in metadata, elements `{"base64": ...}`
 * in `zarr get --json`.
 */
export class NullTerminatedBytesType extends FixedBytesBase {
  readonly kind = "bytes";
  readonly name: string;

  constructor(length: number) {
    super(length);
    this.name = `null_terminated_bytes(${length})`;
  }

  toV3(): JsonValue {
    return { name: "null_terminated_bytes", configuration: { length_bytes: this.length } };
  }

  toV2(): JsonValue {
    return `|S${this.length}`;
  }

  parseFill(json: JsonValue, format: ZarrFormat): Uint8Array {
    if (json === null && format === 2) return this.defaultFill;
    const bytes = this.parseBase64Fill(json, format);
    if (bytes.length > this.length && format === 3) {
      throw new FillValueError(
        `Invalid fill value for ${this.name}: ${bytes.length} bytes, more than the ${this.length} an element holds`,
      );
    }
    return stripTrailingNuls(bytes.subarray(0, this.length)).slice();
  }

  fillToJson(value: Uint8Array): JsonValue {
    return bytesToBase64(stripTrailingNuls(value));
  }

  getElement(data: Uint8Array, index: number): Uint8Array {
    const start = index * this.length;
    return stripTrailingNuls(data.subarray(start, start + this.length)).slice();
  }
}

/** The `S` type of a length in bytes (v2 `|S<length>`, v3 `null_terminated_bytes`). */
export function nullTerminatedBytes(length: number): NullTerminatedBytesType {
  return new NullTerminatedBytesType(lengthOfTypestr(String(length), `|S${length}`));
}

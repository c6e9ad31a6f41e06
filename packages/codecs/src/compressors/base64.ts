import type { NamedConfig } from "@z/metadata";
import { base64ToBytes, bytesToBase64 } from "@z/metadata";
import { DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec } from "../types.js";

/**
 * numcodecs' `base64` codec (`numcodecs.base64`, no configuration): the bytes as standard
 * base64 text with padding, as Python's `base64.standard_b64encode` writes it.
 */
export class Base64Codec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name = "numcodecs.base64";

  /** The metadata entry. */
  toJson(): NamedConfig {
    return { name: this.name, configuration: {}, mustUnderstand: true };
  }

  encodedSize(decodedSize: number): number {
    return 4 * Math.ceil(decodedSize / 3);
  }

  encode(bytes: Uint8Array): Uint8Array {
    const text = bytesToBase64(bytes);
    const out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }

  decode(bytes: Uint8Array, options?: BytesDecodeOptions): Uint8Array {
    // The decoded size is known before decoding: a chunk too large for its array is refused
    // before anything is allocated for it.
    const decoded = Math.floor(bytes.length / 4) * 3;
    if (options && decoded - 2 > options.maxSize) {
      throw new DecodeError(
        `${this.name} codec: ${bytes.length} bytes of base64 decode to more than the chunk's ${options.maxSize} bytes`,
      );
    }
    let text = "";
    for (let i = 0; i < bytes.length; i += 8192)
      text += String.fromCharCode(...bytes.subarray(i, i + 8192));
    try {
      return base64ToBytes(text, `${this.name} codec: the chunk`);
    } catch (error) {
      throw new DecodeError((error as Error).message, { cause: error });
    }
  }
}

import type { JsonObject, NamedConfig } from "@z/metadata";
import { LITTLE_ENDIAN_HOST, product } from "@z/metadata/internal";
import { CodecConfigError, CodecError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec, ChunkSpec } from "../types.js";
import { parseInteger } from "./config.js";

const NAME = "numcodecs.shuffle";

/**
 * numcodecs' `shuffle` filter: the bytes of `elementsize`-byte elements regrouped so that
 * all first bytes come first, then all second bytes, and so on. An `elementsize` of 0 or 1
 * leaves the bytes as they are (as numcodecs does); a missing one is the chunk's element size
 * (as zarr-python 3 fills it in). The byte count must be a multiple of `elementsize`.
 */
export class ShuffleCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name = NAME;

  constructor(readonly elementsize: number) {
    if (!Number.isInteger(elementsize) || elementsize < 0) {
      throw new CodecConfigError(
        `${NAME}: "elementsize" must be a non-negative integer, got ${elementsize}`,
      );
    }
  }

  /**
   * Builds the codec from `{elementsize?}` for chunks of `spec` (the chunk spec entering the
   * array-to-bytes codec); checks that a chunk's bytes divide into elements.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec?: ChunkSpec): ShuffleCodec {
    const given = configuration.elementsize;
    const itemSize = spec?.dataType.itemSize ?? 0;
    const elementsize =
      given === undefined || given === null
        ? itemSize || 4
        : parseInteger(configuration, "elementsize", NAME, 0, 2 ** 31 - 1);
    if (spec && itemSize > 0 && elementsize > 1) {
      const bytes = product(spec.shape) * itemSize;
      if (bytes % elementsize !== 0) {
        throw new CodecConfigError(
          `${NAME}: a chunk has ${bytes} bytes, not a multiple of "elementsize" ${elementsize}; numcodecs cannot shuffle it`,
        );
      }
    }
    return new ShuffleCodec(elementsize);
  }

  toJson(): NamedConfig {
    return { name: NAME, configuration: { elementsize: this.elementsize }, mustUnderstand: true };
  }

  encodedSize(decodedSize: number): number {
    return decodedSize;
  }

  encode(bytes: Uint8Array): Uint8Array {
    const size = this.elementsize;
    if (size <= 1) return bytes;
    if (bytes.length % size !== 0) {
      throw new CodecError(
        `${NAME}: ${bytes.length} bytes are not a multiple of "elementsize" ${size}`,
      );
    }
    return shuffleBytes(bytes, size);
  }

  decode(bytes: Uint8Array, options: BytesDecodeOptions): Uint8Array {
    const size = this.elementsize;
    if (
      bytes.length > options.maxSize ||
      (options.expectedSize !== undefined && bytes.length !== options.expectedSize)
    ) {
      throw new DecodeError(
        `${NAME}: the chunk has ${bytes.length} bytes; it must have ${options.expectedSize ?? `at most ${options.maxSize}`}`,
      );
    }
    if (size <= 1) return bytes;
    if (bytes.length % size !== 0) {
      throw new DecodeError(
        `${NAME}: the chunk has ${bytes.length} bytes, not a multiple of "elementsize" ${size}`,
      );
    }
    return unshuffleBytes(bytes, size);
  }
}

/** numcodecs' shuffle: byte k of element i goes to `k * count + i`. */
export function shuffleBytes(bytes: Uint8Array, size: number): Uint8Array {
  const count = bytes.length / size;
  const out = new Uint8Array(bytes.length);
  if (LITTLE_ENDIAN_HOST && size % 4 === 0 && bytes.byteOffset % 4 === 0) {
    // Whole 32-bit words in, four bytes out to four planes: a quarter of the loads.
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
    const perElement = size / 4;
    for (let w = 0; w < perElement; w++) {
      const p0 = 4 * w * count;
      const p1 = p0 + count;
      const p2 = p1 + count;
      const p3 = p2 + count;
      for (let i = 0, j = w; i < count; i++, j += perElement) {
        const word = words[j];
        out[p0 + i] = word;
        out[p1 + i] = word >>> 8;
        out[p2 + i] = word >>> 16;
        out[p3 + i] = word >>> 24;
      }
    }
    return out;
  }
  for (let b = 0; b < size; b++) {
    const base = b * count;
    for (let i = 0, j = b; i < count; i++, j += size) out[base + i] = bytes[j];
  }
  return out;
}

/** The inverse of {@link shuffleBytes}. */
export function unshuffleBytes(bytes: Uint8Array, size: number): Uint8Array {
  const count = bytes.length / size;
  const out = new Uint8Array(bytes.length);
  if (LITTLE_ENDIAN_HOST && size % 4 === 0) {
    // Four planes in, one 32-bit word out: a quarter of the stores.
    const words = new Uint32Array(out.buffer, 0, bytes.length / 4);
    const perElement = size / 4;
    for (let w = 0; w < perElement; w++) {
      const p0 = 4 * w * count;
      const p1 = p0 + count;
      const p2 = p1 + count;
      const p3 = p2 + count;
      for (let i = 0, j = w; i < count; i++, j += perElement) {
        words[j] =
          bytes[p0 + i] | (bytes[p1 + i] << 8) | (bytes[p2 + i] << 16) | (bytes[p3 + i] << 24);
      }
    }
    return out;
  }
  for (let b = 0; b < size; b++) {
    const base = b * count;
    for (let i = 0, j = b; i < count; i++, j += size) out[j] = bytes[base + i];
  }
  return out;
}

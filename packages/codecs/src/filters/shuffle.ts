import type { JsonObject, NamedConfig } from "@z/metadata";
import { product } from "@z/ndarray";
import { CodecConfigError, CodecError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions, BytesToBytesCodec, ChunkSpec } from "../types.js";
import { parseInteger } from "./config.js";
import { shuffleBytes, unshuffleBytes } from "./shuffle-bytes.js";

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

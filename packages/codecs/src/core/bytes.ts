import { formatValue } from "@z/errors";
import type { Endian, JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { CodecConfigError, DecodeError } from "../errors.js";
import type { ArrayToBytesCodec, ChunkSpec } from "../types.js";

/**
 * The `bytes` codec: elements in C order, each in the configured byte order. Decoding checks
 * the length exactly and returns a view of the bytes when alignment and byte order allow.
 */
export class BytesCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "bytes";
  constructor(readonly endian: Endian | undefined) {}

  /** Builds the codec from its configuration (`{endian?: "little" | "big"}`). */
  static fromConfig(configuration: JsonObject): BytesCodec {
    const endian = configuration.endian;
    if (endian !== undefined && endian !== "little" && endian !== "big") {
      throw new CodecConfigError(
        `bytes codec: "endian" must be "little" or "big", got ${formatValue(endian)}`,
      );
    }
    return new BytesCodec(endian);
  }

  toJson(): NamedConfig {
    return {
      name: "bytes",
      configuration: this.endian ? { endian: this.endian } : {},
      mustUnderstand: true,
    };
  }

  encodedSize(spec: ChunkSpec): number {
    return product(spec.shape) * spec.dataType.itemSize;
  }

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    const { dataType } = spec;
    const ordered = toCOrder(chunk, (n) => dataType.create(n), dataType.lanes);
    return dataType.encode(ordered.data, this.endian ?? "little");
  }

  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk {
    const { dataType } = spec;
    const n = product(spec.shape);
    const expected = n * dataType.itemSize;
    if (bytes.length !== expected) {
      throw new DecodeError(
        `bytes codec: the chunk has ${bytes.length} bytes; ${n} ${dataType.name} elements need exactly ${expected}`,
      );
    }
    return {
      data: dataType.decode(bytes, n, this.endian ?? "little"),
      shape: [...spec.shape],
      stride: cOrderStrides(spec.shape),
    };
  }
}

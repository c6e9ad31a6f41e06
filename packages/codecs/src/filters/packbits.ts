import {
  type DataType,
  type JsonObject,
  type NamedConfig,
  resolveNumpyDataType,
} from "@z/metadata";
import { type Chunk, product } from "@z/ndarray";
import { CodecConfigError, DecodeError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { chunkNumericType } from "./config.js";
import { cOrderChunk, type Elements, encodedElements, flatElements } from "./elements.js";

const NAME = "numcodecs.packbits";

/** The padding bits of the last byte for `n` elements, which the header byte records. */
function paddingBits(n: number): number {
  return (8 - (n % 8)) % 8;
}

/**
 * numcodecs' `packbits` filter: a boolean chunk, flattened in C order, as a uint8 vector of
 * `ceil(n / 8) + 1` bytes: the number of padding bits, then the elements packed most
 * significant bit first (`numpy.packbits`). Also accepts int8/uint8 chunks (non-zero packs as
 * 1), as numcodecs does by viewing them as bool.
 */
/** The encoded length of `n` elements: a header byte, then the bits, eight to a byte. */
function packedLength(n: number): number {
  return Math.ceil(n / 8) + 1;
}

export class PackBitsCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;
  private readonly uint8: DataType = resolveNumpyDataType("uint8").dataType;

  /**
   * Builds the codec (its configuration is empty) for chunks of `spec`.
   * @throws CodecConfigError for chunks that are not one byte per element
   */
  static fromConfig(_configuration: JsonObject, spec?: ChunkSpec): PackBitsCodec {
    if (spec) {
      const type = chunkNumericType(NAME, spec.dataType);
      if (type.bits !== 8) {
        throw new CodecConfigError(
          `${NAME}: only bool (or int8/uint8) chunks can be bit-packed, got ${spec.dataType.name}`,
        );
      }
    }
    return new PackBitsCodec();
  }

  toJson(): NamedConfig {
    return { name: NAME, configuration: {}, mustUnderstand: true };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    return { shape: [packedLength(product(spec.shape))], dataType: this.uint8, fillValue: 0 };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const n = product(chunk.shape);
    const input = flatElements(chunk, spec.dataType);
    const out = this.uint8.create(packedLength(n)) as Uint8Array;
    out[0] = paddingBits(n);
    for (let i = 0; i < n; i++) if (input[i]) out[1 + (i >> 3)] |= 0x80 >> (i & 7);
    return cOrderChunk(out, [out.length]);
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const n = product(spec.shape);
    const input = encodedElements(chunk, this.uint8, packedLength(n), NAME);
    const padding = input[0] as number;
    if (padding !== paddingBits(n)) {
      throw new DecodeError(
        `${NAME}: the header says ${padding} padding bits; a chunk of ${n} elements has ${paddingBits(n)}`,
      );
    }
    const out = spec.dataType.create(n) as unknown as Elements;
    for (let i = 0; i < n; i++) out[i] = ((input[1 + (i >> 3)] as number) >> (7 - (i & 7))) & 1;
    return cOrderChunk(out, spec.shape);
  }
}

import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { product } from "@z/ndarray";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { parseDtype, requireChunkType } from "./config.js";
import {
  cOrderChunk,
  convertElements,
  convertFill,
  type Elements,
  encodedElements,
  flatElements,
} from "./elements.js";
import type { FilterDtype } from "./types.js";

const NAME = "numcodecs.astype";

/**
 * numcodecs' `astype` filter: stores elements converted to `encode_dtype` and converts them
 * back to `decode_dtype`, with NumPy's casting (integers wrap around, floats truncate toward
 * zero, out-of-range and NaN floats give what x86-64 NumPy gives).
 */
export class AsTypeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;

  constructor(
    readonly encodeDtype: FilterDtype,
    readonly decodeDtype: FilterDtype,
  ) {}

  /**
   * Builds the codec from `{encode_dtype, decode_dtype}`; with `spec`, checks that
   * `decode_dtype` is the chunks' data type.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec?: ChunkSpec): AsTypeCodec {
    const encodeDtype = parseDtype(configuration, "encode_dtype", NAME);
    const decodeDtype = parseDtype(configuration, "decode_dtype", NAME);
    if (spec) requireChunkType(NAME, "decode_dtype", decodeDtype, spec.dataType);
    return new AsTypeCodec(encodeDtype, decodeDtype);
  }

  toJson(): NamedConfig {
    return {
      name: NAME,
      configuration: { encode_dtype: this.encodeDtype.json, decode_dtype: this.decodeDtype.json },
      mustUnderstand: true,
    };
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    const fillValue = convertFill(spec, this.encodeDtype.dataType, (one) =>
      this.convert(one, this.decodeDtype, this.encodeDtype, 1),
    );
    return { shape: [...spec.shape], dataType: this.encodeDtype.dataType, fillValue };
  }

  encode(chunk: Chunk): Chunk {
    const n = product(chunk.shape);
    const input = flatElements(chunk, this.decodeDtype.dataType);
    return cOrderChunk(this.convert(input, this.decodeDtype, this.encodeDtype, n), chunk.shape);
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const n = product(spec.shape);
    const input = encodedElements(chunk, this.encodeDtype.dataType, n, NAME);
    return cOrderChunk(this.convert(input, this.encodeDtype, this.decodeDtype, n), spec.shape);
  }

  private convert(input: Elements, from: FilterDtype, to: FilterDtype, n: number): Elements {
    const out = to.dataType.create(n) as unknown as Elements;
    convertElements(input, from.type, out, to.type, n);
    return out;
  }
}

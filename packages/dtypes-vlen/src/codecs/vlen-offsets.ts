import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  type CodecContext,
} from "@z/codecs";
import { formatValue } from "@z/errors";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { arrowVectorFromBuffers, type VlenVector } from "../arrow.js";
import { EncodeError } from "../errors.js";
import { encodeOffsetsLayout, type OffsetWidth, readOffsetsLayout } from "../layout/offsets.js";
import { decodeItemsInRegion, utf8Length, validateUtf8Items, writeUtf8 } from "../layout/utf8.js";
import { checkConfigKeys, checkDataType, chunkOf, cOrderElements, elementCount } from "./common.js";
import { bytesElement } from "./vlen-bytes.js";
import { VLEN_OFFSETS_CODEC } from "./vlen-offsets-name.js";
import { stringElement } from "./vlen-utf8.js";

export { VLEN_OFFSETS_CODEC };

/** Options of {@link VlenOffsetsCodec.decodeToArrow}. */
export interface ArrowDecodeOptions {
  /**
   * Check that string data is valid UTF-8 (default true). Arrow readers assume it; skip the
   * check only for data you trust.
   */
  validateUtf8?: boolean;
}

/**
 * The strings proposal's Arrow-compatible layout, as the array-to-bytes codec
 * `z.vlen-offsets` with configuration `{"offsets": "int32" | "int64"}` (default int32):
 * `n + 1` little-endian offsets, zero padding to the next multiple of 64 bytes, then the
 * concatenated element bytes. For `string` arrays the elements are UTF-8; for `bytes`
 * arrays, raw bytes. A chunk decodes into `string[]` / `Uint8Array[]` like the vlen codecs, or,
 * with {@link VlenOffsetsCodec.decodeToArrow}, into an Arrow Utf8 / Binary (int32) or
 * LargeUtf8 / LargeBinary (int64) vector whose buffers are views of the chunk.
 */
export class VlenOffsetsCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = VLEN_OFFSETS_CODEC;

  constructor(
    /** The width of the offsets. */
    readonly offsets: OffsetWidth,
    /** Whether the elements are text (a string array) or bytes. */
    readonly elements: "utf8" | "binary",
  ) {}

  /** Builds the codec from `{offsets?: "int32" | "int64"}` for chunks of `spec`. */
  static fromConfig(configuration: JsonObject, { spec }: CodecContext): VlenOffsetsCodec {
    checkConfigKeys(VLEN_OFFSETS_CODEC, configuration, ["offsets"]);
    const offsets = configuration.offsets ?? "int32";
    if (offsets !== "int32" && offsets !== "int64") {
      throw new CodecConfigError(
        `${VLEN_OFFSETS_CODEC}: "offsets" must be "int32" or "int64", got ${formatValue(offsets)}`,
      );
    }
    checkDataType(VLEN_OFFSETS_CODEC, spec.dataType, ["string", "bytes"], VLEN_OFFSETS_CODEC);
    return new VlenOffsetsCodec(offsets, spec.dataType.kind === "string" ? "utf8" : "binary");
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: { offsets: this.offsets }, mustUnderstand: true };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    const items = cOrderElements(chunk, spec);
    const count = items.length;
    const sizes = new Float64Array(count);
    let out: Uint8Array | undefined;
    if (this.elements === "utf8") {
      const texts = new Array<string>(count);
      for (let i = 0; i < count; i++) {
        texts[i] = stringElement(items[i], i, this.name);
        sizes[i] = utf8Length(texts[i]);
      }
      out = encodeOffsetsLayout(sizes, count, this.offsets, (i, buf, at) =>
        writeUtf8(texts[i], sizes[i], buf, at),
      );
    } else {
      const values = new Array<Uint8Array>(count);
      for (let i = 0; i < count; i++) {
        values[i] = bytesElement(items[i], i, this.name);
        sizes[i] = values[i].length;
      }
      out = encodeOffsetsLayout(sizes, count, this.offsets, (i, buf, at) => buf.set(values[i], at));
    }
    if (!out)
      throw new EncodeError(
        `${this.name}: the chunk has more than 2 GiB of data; configure {"offsets": "int64"}`,
      );
    return out;
  }

  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk {
    const layout = readOffsetsLayout(bytes, elementCount(spec), this.offsets, this.name);
    const { numericOffsets: o, data, count } = layout;
    if (this.elements === "utf8") {
      const bounds = { starts: o, ends: subarrayFrom(o, 1), count };
      return chunkOf(decodeItemsInRegion(data, bounds, this.name), spec);
    }
    const own = data.slice();
    const items = new Array<Uint8Array>(count);
    for (let i = 0; i < count; i++) items[i] = own.subarray(o[i], o[i + 1]);
    return chunkOf(items, spec);
  }

  /**
   * Decodes a chunk of `spec` into an Arrow vector whose offsets and data are views of
   * `bytes` (the offsets are copied only when `bytes` is not aligned to their width).
   * @throws DecodeError
   */
  async decodeToArrow(
    bytes: Uint8Array,
    spec: ChunkSpec,
    options: ArrowDecodeOptions = {},
  ): Promise<VlenVector> {
    const layout = readOffsetsLayout(bytes, elementCount(spec), this.offsets, this.name);
    if (this.elements === "utf8" && options.validateUtf8 !== false) {
      const o = layout.numericOffsets;
      validateUtf8Items(
        layout.data,
        { starts: o, ends: subarrayFrom(o, 1), count: layout.count },
        this.name,
      );
    }
    return arrowVectorFromBuffers(this.elements, layout.offsets, layout.data);
  }
}

function subarrayFrom(
  values: Uint32Array | Float64Array,
  start: number,
): Uint32Array | Float64Array {
  return values.subarray(start);
}

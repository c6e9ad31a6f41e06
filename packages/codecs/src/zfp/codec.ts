import { DecompressionError } from "@z/compression/errors";
import { type ZfpData, type ZfpMode, zfpCompress, zfpDecompress } from "@z/compression/zfp";
import type { JsonObject, NamedConfig } from "@z/metadata";
import { type Chunk, cOrderStrides, product, toCOrder } from "@z/ndarray";
import { CodecConfigError, CodecError, DecodeError } from "../errors.js";
import type {
  ArrayToBytesCodec,
  BytesDecodeOptions,
  BytesToBytesCodec,
  ChunkSpec,
} from "../types.js";
import { type ZfpElements, zfpElementsOf } from "./elements.js";
import {
  type ZfpyConfig,
  zfpConfigOf,
  zfpModeOf,
  zfpyConfigOf,
  zfpyJsonOf,
  zfpyModeOf,
} from "./modes.js";

/** How a codec name drives zfp: its mode, whether streams carry zfp's header, its element types. */
interface ZfpSetup {
  readonly name: string;
  readonly mode: ZfpMode;
  readonly header: boolean;
  readonly elements: ZfpElements;
}

/**
 * The zfp field of a chunk shape: its dimensions as they are, a 0-d chunk as one value (the
 * registered codec's rule; zfpy has no 0-d streams).
 * @throws CodecConfigError for more than four dimensions, or 0-d chunks under zfpy
 */
function zfpShapeOf(shape: readonly number[], setup: { name: string; header: boolean }): number[] {
  if (shape.length === 0 && !setup.header) return [1];
  if (shape.length >= 1 && shape.length <= 4) return [...shape];
  throw new CodecConfigError(
    `${setup.name} codec: zfp compresses chunks of 1 to 4 dimensions, not ${shape.length} ` +
      `(chunk shape [${shape.join(", ")}])${shape.length > 4 ? "; a reshape codec before it can merge dimensions" : ""}`,
  );
}

async function compress(setup: ZfpSetup, values: ZfpData, shape: number[]): Promise<Uint8Array> {
  try {
    return await zfpCompress(values, { type: setup.elements.type, shape }, setup.mode, {
      header: setup.header,
    });
  } catch (error) {
    throw new CodecError(`${setup.name} codec: ${(error as Error).message}`, { cause: error });
  }
}

async function decompress(setup: ZfpSetup, bytes: Uint8Array, shape: number[]): Promise<ZfpData> {
  try {
    return await zfpDecompress(
      bytes,
      { type: setup.elements.type, shape },
      setup.header ? "header" : setup.mode,
    );
  } catch (error) {
    if (error instanceof DecompressionError)
      throw new DecodeError(`${setup.name} codec: ${error.problem}`, { cause: error });
    throw new CodecError(`${setup.name} codec: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * zfp as an array-to-bytes codec: the registered `zfp` codec (zarr-extensions codecs/zfp, as
 * zarrs writes it: no header, integers narrower than 32 bits and unsigned ones promoted) and
 * numcodecs' `zfpy` in v3 arrays (`numcodecs.zfpy`: zfpy's streams, which start with zfp's
 * header). Fixed-rate `zfp` streams are sized for three dimensions whatever the chunk's, as zarrs
 * sizes them, so that the two read each other's arrays.
 */
export class ZfpCodec implements ArrayToBytesCodec, ZfpSetup {
  readonly kind = "array_to_bytes";

  private constructor(
    readonly name: string,
    readonly mode: ZfpMode,
    readonly header: boolean,
    readonly elements: ZfpElements,
    private readonly configuration: JsonObject,
  ) {}

  /**
   * The registered `zfp` codec for chunks of `spec`.
   * @throws CodecConfigError for an invalid configuration, a data type zfp cannot take, fixed
   *   accuracy on integers, or chunks of more than four dimensions
   */
  static fromConfig(configuration: JsonObject, spec: ChunkSpec, name = "zfp"): ZfpCodec {
    const mode = zfpModeOf(configuration, name);
    const elements = zfpElementsOf(spec.dataType.name, name, true);
    if (mode.mode === "fixed_accuracy" && !elements.type.startsWith("float"))
      throw new CodecConfigError(
        `${name} codec: fixed_accuracy mode applies to floating-point data, not ${spec.dataType.name}`,
      );
    zfpShapeOf(spec.shape, { name, header: false });
    const driven: ZfpMode =
      mode.mode === "fixed_rate" ? { ...mode, rateType: elements.type, rateDims: 3 } : mode;
    return new ZfpCodec(name, driven, false, elements, zfpConfigOf(mode));
  }

  /**
   * numcodecs' zfpy codec in a v3 array (`numcodecs.zfpy`), for chunks of `spec`.
   * @throws CodecConfigError for an invalid configuration, a data type zfpy does not take
   *   (int32, int64, float32 and float64 only), or chunks of 0 or more than four dimensions
   */
  static fromZfpyConfig(configuration: JsonObject, spec: ChunkSpec): ZfpCodec {
    const name = "numcodecs.zfpy";
    const config = zfpyConfigOf(configuration, name);
    const elements = zfpElementsOf(spec.dataType.name, name, false);
    zfpShapeOf(spec.shape, { name, header: true });
    return new ZfpCodec(name, zfpyModeOf(config), true, elements, zfpyJsonOf(config));
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: { ...this.configuration }, mustUnderstand: true };
  }

  async encode(chunk: Chunk, spec: ChunkSpec): Promise<Uint8Array> {
    const shape = zfpShapeOf(spec.shape, this);
    const ordered = toCOrder(chunk, (n) => spec.dataType.create(n), spec.dataType.lanes);
    return compress(this, this.elements.toZfp(ordered.data, product(shape)), shape);
  }

  async decode(bytes: Uint8Array, spec: ChunkSpec): Promise<Chunk> {
    const shape = zfpShapeOf(spec.shape, this);
    const values = await decompress(this, bytes, shape);
    const data = spec.dataType.create(product(shape));
    this.elements.fromZfp(values, data);
    return { data, shape: [...spec.shape], stride: cOrderStrides(spec.shape) };
  }
}

/**
 * numcodecs' zfpy as a v2 compressor: it compresses the chunk's element bytes (little-endian,
 * what the `bytes` codec before it writes) as an array of the chunk's shape and type, as zfpy
 * compresses the NumPy chunk zarr-python hands it, header included.
 */
export class ZfpyCompressor implements BytesToBytesCodec, ZfpSetup {
  readonly kind = "bytes_to_bytes";
  readonly name = "numcodecs.zfpy";
  readonly header = true;

  private constructor(
    readonly mode: ZfpMode,
    readonly elements: ZfpElements,
    private readonly config: ZfpyConfig,
    private readonly shape: number[],
  ) {}

  /**
   * The compressor for chunks of `spec` (the spec the `bytes` codec before it serialises).
   * @throws CodecConfigError as {@link ZfpCodec.fromZfpyConfig}
   */
  static fromConfig(configuration: JsonObject, spec: ChunkSpec): ZfpyCompressor {
    const config = zfpyConfigOf(configuration);
    const elements = zfpElementsOf(spec.dataType.name, "numcodecs.zfpy", false);
    const shape = zfpShapeOf(spec.shape, { name: "numcodecs.zfpy", header: true });
    return new ZfpyCompressor(zfpyModeOf(config), elements, config, shape);
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: zfpyJsonOf(this.config), mustUnderstand: true };
  }

  async encode(bytes: Uint8Array): Promise<Uint8Array> {
    const n = product(this.shape);
    const values = zfpArray(this.elements.type, bytes.slice().buffer, n);
    if (values === undefined)
      throw new CodecError(
        `numcodecs.zfpy codec: ${bytes.length} bytes are not ${n} ${this.elements.type} values`,
      );
    return compress(this, values, this.shape);
  }

  async decode(bytes: Uint8Array, options: BytesDecodeOptions): Promise<Uint8Array> {
    const size = product(this.shape) * zfpItemSize(this.elements.type);
    const limit = Math.min(options.expectedSize ?? size, options.maxSize);
    if (size > limit)
      throw new DecodeError(
        `numcodecs.zfpy codec: the chunk decodes to ${size} bytes, more than the ${limit} allowed`,
      );
    const values = await decompress(this, bytes, this.shape);
    const out = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    if (options.expectedSize !== undefined && out.length !== options.expectedSize)
      throw new DecodeError(
        `numcodecs.zfpy codec: the stream decodes to ${out.length} bytes; the chunk has ${options.expectedSize}`,
      );
    return out;
  }
}

const ZFP_ARRAYS = {
  int32: Int32Array,
  int64: BigInt64Array,
  float32: Float32Array,
  float64: Float64Array,
} as const;

/** The bytes of one value of a zfp type. */
function zfpItemSize(type: ZfpElements["type"]): number {
  return ZFP_ARRAYS[type].BYTES_PER_ELEMENT;
}

/** `n` values of a zfp type over `buffer`, or undefined when the buffer holds another count. */
function zfpArray(type: ZfpElements["type"], buffer: ArrayBuffer, n: number): ZfpData | undefined {
  const make = ZFP_ARRAYS[type];
  if (buffer.byteLength !== n * make.BYTES_PER_ELEMENT) return undefined;
  return new make(buffer);
}

import { formatValue } from "@z/errors";
import {
  type JsonObject,
  MetadataError,
  type NamedConfig,
  namedConfigToJson,
  parseNamedConfig,
} from "@z/metadata";
import { type Chunk, cOrderStrides, copyStrided, product, toCOrder } from "@z/ndarray";
import { CodecConfigError, DecodeError } from "../errors.js";
import { CodecPipeline } from "../pipeline.js";
import type { ArrayToBytesCodec, ChunkSpec, CodecContext } from "../types.js";
import { readN5BlockHeader, writeN5BlockHeader } from "./block-header.js";

const NAME = "n5_default";

/**
 * Reads and checks the codec list: a transpose reversing the dimensions, `bytes` in big-endian
 * order (or without `endian` for one-byte types), then at most one bytes-to-bytes codec (N5's
 * compression).
 * @throws CodecConfigError
 */
function codecList(configuration: JsonObject, spec: ChunkSpec): NamedConfig[] {
  const json = configuration.codecs;
  if (!Array.isArray(json) || json.length < 2 || json.length > 3)
    throw new CodecConfigError(
      `${NAME} codec: "codecs" must list a transpose, a bytes codec and at most one compressor, got ${formatValue(json)}`,
    );
  let codecs: NamedConfig[];
  try {
    codecs = json.map((entry, i) => parseNamedConfig(entry, `${NAME} codecs[${i}]`));
  } catch (error) {
    if (error instanceof MetadataError)
      throw new CodecConfigError(error.message, { codec: NAME, cause: error });
    throw error;
  }
  const ndim = spec.shape.length;
  const reversed = Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
  const [transpose, bytes] = codecs;
  const order = transpose.configuration.order;
  if (
    transpose.name !== "transpose" ||
    !Array.isArray(order) ||
    order.length !== ndim ||
    order.some((axis, i) => axis !== reversed[i])
  )
    throw new CodecConfigError(
      `${NAME} codec: the first codec must be a transpose with order [${reversed.join(", ")}] (N5 blocks are in F order), got ${formatValue(namedConfigToJson(transpose))}`,
    );
  const endian = bytes.configuration.endian;
  if (
    bytes.name !== "bytes" ||
    !(endian === "big" || (endian === undefined && spec.dataType.itemSize <= 1))
  )
    throw new CodecConfigError(
      `${NAME} codec: the second codec must be bytes with endian "big" (N5 blocks are big-endian), got ${formatValue(namedConfigToJson(bytes))}`,
    );
  return codecs;
}

/**
 * The `n5_default` codec (zarr-extensions codecs/n5_default): chunks stored as N5 blocks in the
 * default mode, a header giving the block's shape followed by the elements (in F order,
 * big-endian, compressed by N5's compression), so that Zarr readers read N5 arrays and N5
 * readers read what is written. Blocks at the array's edge may be padded (zarr-python 2,
 * tensorstore) or truncated (N5's Java library): truncated ones read as the fill value beyond
 * their shape. Writing always stores whole blocks, padded as Zarr pads edge chunks.
 */
export class N5DefaultCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = NAME;
  /** Pipelines for block shapes other than the chunk's (truncated edge blocks), by shape. */
  private readonly truncated = new Map<string, CodecPipeline>();

  private constructor(
    private readonly codecs: NamedConfig[],
    private readonly spec: ChunkSpec,
    private readonly zarrFormat: 2 | 3,
    /** The codecs inside a block of the chunk's shape. */
    private readonly inner: CodecPipeline,
  ) {}

  /**
   * Builds the codec for chunks of `context.spec`.
   * @throws CodecConfigError for a codec list that does not describe N5's layout, or whose
   *   third codec is not a bytes-to-bytes codec
   */
  static fromConfig(configuration: JsonObject, context: CodecContext): N5DefaultCodec {
    const codecs = codecList(configuration, context.spec);
    let inner: CodecPipeline;
    try {
      inner = CodecPipeline.create(codecs, context.spec, context.zarrFormat, {}, `${NAME} codecs`);
    } catch (error) {
      // A codec list in the wrong order is this codec's configuration error.
      if (error instanceof MetadataError)
        throw new CodecConfigError(error.message, { codec: NAME, cause: error });
      throw error;
    }
    if (inner.arrayToArray.length !== 1 || inner.bytesToBytes.length !== codecs.length - 2)
      throw new CodecConfigError(
        `${NAME} codec: the codec after bytes must be a bytes-to-bytes codec (N5's compression)`,
      );
    return new N5DefaultCodec(codecs, context.spec, context.zarrFormat, inner);
  }

  toJson(): NamedConfig {
    return {
      name: NAME,
      configuration: { codecs: this.codecs.map(namedConfigToJson) },
      mustUnderstand: true,
    };
  }

  async encode(chunk: Chunk): Promise<Uint8Array> {
    const header = writeN5BlockHeader(this.spec.shape);
    const body = await this.inner.encode(chunk);
    const out = new Uint8Array(header.length + body.length);
    out.set(header);
    out.set(body, header.length);
    return out;
  }

  async decode(bytes: Uint8Array): Promise<Chunk> {
    const { shape } = this.spec;
    const header = readN5BlockHeader(bytes, shape.length);
    const body = bytes.subarray(header.length);
    const { dataType, fillValue } = this.spec;
    if (header.shape.every((extent, axis) => extent === shape[axis])) {
      // The transpose leaves a view in F order: callers get chunks in C order.
      const block = await this.inner.decode(body);
      return toCOrder(block, (n) => dataType.create(n), dataType.lanes);
    }
    const blockSize = product(header.shape);
    if (blockSize > product(shape))
      throw new DecodeError(
        `${NAME} codec: the block header states a block of [${header.shape.join(", ")}], larger than the chunk [${shape.join(", ")}]`,
      );
    const data = dataType.create(product(shape));
    const stride = cOrderStrides(shape);
    dataType.fill(data, fillValue);
    if (blockSize === 0) return { data, shape: [...shape], stride };
    const block = await this.pipelineFor(header.shape).decode(body);
    // The block's part inside the chunk (a block larger along one axis is cut there).
    const overlap = header.shape.map((extent, axis) => Math.min(extent, shape[axis]));
    copyStrided(
      { data: block.data, offset: 0, stride: block.stride },
      { data, offset: 0, stride },
      overlap,
      dataType.lanes,
    );
    return { data, shape: [...shape], stride };
  }

  /** The codec pipeline of blocks of `blockShape`. */
  private pipelineFor(blockShape: number[]): CodecPipeline {
    const key = blockShape.join(",");
    let pipeline = this.truncated.get(key);
    if (!pipeline) {
      const spec = { ...this.spec, shape: blockShape };
      pipeline = CodecPipeline.create(this.codecs, spec, this.zarrFormat, {}, `${NAME} codecs`);
      // Edge blocks come in few shapes (one per combination of edge axes); the bound keeps a
      // hostile store from growing this without limit.
      if (this.truncated.size < 64) this.truncated.set(key, pipeline);
    }
    return pipeline;
  }
}

import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  type CodecContext,
  DecodeError,
} from "@z/codecs";
import {
  type DataType,
  type Endian,
  type JsonObject,
  type NamedConfig,
  resolveNumpyDataType,
} from "@z/metadata";
import { type Chunk, type Container, isTypedArray } from "@z/ndarray";
import { describeValue } from "../describe.js";
import { EncodeError } from "../errors.js";
import { encodeVlen, scanVlen } from "../layout/vlen.js";
import { checkConfigKeys, checkDataType, chunkOf, cOrderElements, elementCount } from "./common.js";

/**
 * numcodecs' `vlen-array` object codec (v2): each element is a 1-d array of the configured
 * NumPy dtype (`{"dtype": "<i4"}`), stored in the vlen layout as its raw bytes. Elements read
 * as TypedArrays (BigInt64Array for 64-bit integers); numbers arrays and TypedArrays write.
 */
export class VlenArrayCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "numcodecs.vlen-array";

  constructor(
    /** The NumPy dtype string of the elements' items, as configured. */
    readonly dtype: string,
    private readonly itemType: DataType,
    private readonly endian: Endian,
  ) {}

  /** Builds the codec from `{dtype}` for chunks of `spec` (a v2 object array). */
  static fromConfig(configuration: JsonObject, { spec }: CodecContext): VlenArrayCodec {
    const name = "numcodecs.vlen-array";
    checkConfigKeys(name, configuration, ["dtype"]);
    checkDataType(name, spec.dataType, ["object"], "vlen-array");
    const dtype = configuration.dtype;
    if (typeof dtype !== "string")
      throw new CodecConfigError(`${name}: "dtype" must be a NumPy dtype string like "<i4"`);
    const { dataType, endian } = resolveNumpyDataType(dtype, `${name} dtype`);
    if (dataType.itemSize === 0)
      throw new CodecConfigError(`${name}: "dtype" must be a fixed-size type, got ${dtype}`);
    return new VlenArrayCodec(dtype, dataType, endian);
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: { dtype: this.dtype }, mustUnderstand: true };
  }

  private toItem(value: unknown, index: number): Container {
    const type = this.itemType;
    if (value === null || value === undefined || value === 0) return type.create(0);
    const sameKind = isTypedArray(value) && value.constructor === type.create(0).constructor;
    if (sameKind) return value as Container;
    if (!isTypedArray(value) && !Array.isArray(value)) {
      throw new EncodeError(
        `${this.name}: element ${index} is ${describeValue(value)}; expected an array of numbers`,
      );
    }
    const items = value as ArrayLike<unknown>;
    const out = type.create(items.length);
    for (let k = 0; k < items.length; k++) type.setElement(out, k, type.coerce(items[k]));
    return out;
  }

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    const elements = cOrderElements(chunk, spec);
    const count = elements.length;
    const encoded = new Array<Uint8Array>(count);
    const sizes = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      encoded[i] = this.itemType.encode(this.toItem(elements[i], i), this.endian);
      sizes[i] = encoded[i].length;
    }
    return encodeVlen(sizes, count, (i, out, at) => out.set(encoded[i], at));
  }

  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk {
    const scan = scanVlen(bytes, elementCount(spec), this.name);
    const size = this.itemType.itemSize;
    const own = bytes.slice();
    const items = new Array<Container>(scan.count);
    for (let i = 0; i < scan.count; i++) {
      const length = scan.ends[i] - scan.starts[i];
      if (length % size !== 0) {
        throw new DecodeError(
          `${this.name}: item ${i} has ${length} bytes, not a whole number of ${this.dtype} values`,
        );
      }
      items[i] = this.itemType.decode(
        own.subarray(scan.starts[i], scan.ends[i]),
        length / size,
        this.endian,
      );
    }
    return chunkOf(items, spec);
  }
}

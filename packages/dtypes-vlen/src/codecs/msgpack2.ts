import { decode as msgpackDecode, encode as msgpackEncode } from "@msgpack/msgpack";
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  type CodecContext,
  DecodeError,
} from "@z/codecs";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides } from "@z/ndarray";
import { JsonFloat } from "../dtype/json-element.js";
import { EncodeError } from "../errors.js";
import { checkConfigKeys, checkDataType, cOrderElements } from "./common.js";
import { nestElements, readNestedItems } from "./nested-items.js";
import { elementValues, numpyDtypeOf, toContainer } from "./object-elements.js";

function flag(configuration: JsonObject, key: string, fallback: boolean): boolean {
  const value = configuration[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "boolean")
    throw new CodecConfigError(`numcodecs.msgpack2: "${key}" must be true or false`);
  return value;
}

function plainNumbers(value: unknown): unknown {
  if (value instanceof JsonFloat) return value.value;
  if (Array.isArray(value)) return value.map(plainNumbers);
  return value;
}

function hasBytes(value: unknown): boolean {
  if (value instanceof Uint8Array) return true;
  if (Array.isArray(value)) return value.some(hasBytes);
  if (value !== null && typeof value === "object" && !ArrayBuffer.isView(value))
    return Object.values(value).some(hasBytes);
  return false;
}

/**
 * numcodecs' `msgpack2` object codec (v2), read with @msgpack/msgpack: the chunk as
 * `[...elements nested by dimension, dtype, shape]` in MessagePack. Decoding is bounded (no
 * string, binary, array or map may claim more entries than the chunk has bytes) and checks
 * the shape and the element count; `bin` values read as Uint8Arrays of a private copy.
 * Encoding writes what Python's msgpack writes for the same values, except that JavaScript
 * cannot tell an integral float (1.0) from an int: such numbers are written as integers.
 */
export class MsgPack2Codec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "numcodecs.msgpack2";

  constructor(
    private readonly configuration: JsonObject,
    private readonly raw: boolean,
    private readonly useSingleFloat: boolean,
    private readonly useBinType: boolean,
  ) {}

  /** Builds the codec from `{raw, use_single_float, use_bin_type}`. */
  static fromConfig(configuration: JsonObject, { spec }: CodecContext): MsgPack2Codec {
    const name = "numcodecs.msgpack2";
    checkConfigKeys(name, configuration, ["raw", "use_single_float", "use_bin_type"]);
    checkDataType(name, spec.dataType, ["any"], "msgpack2");
    return new MsgPack2Codec(
      configuration,
      flag(configuration, "raw", false),
      flag(configuration, "use_single_float", false),
      flag(configuration, "use_bin_type", true),
    );
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: this.configuration, mustUnderstand: true };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    const items: unknown[] = nestElements(
      elementValues(cOrderElements(chunk, spec), spec),
      spec.shape,
    ).map(plainNumbers);
    if (!this.useBinType && hasBytes(items)) {
      throw new EncodeError(
        `${this.name}: writing bytes with use_bin_type false (the old raw format) is not supported`,
      );
    }
    items.push(numpyDtypeOf(spec), [...spec.shape]);
    try {
      return msgpackEncode(items, { forceFloat32: this.useSingleFloat });
    } catch (error) {
      throw new EncodeError(`${this.name}: ${(error as Error).message}`);
    }
  }

  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk {
    const limit = bytes.length;
    let decoded: unknown;
    try {
      decoded = msgpackDecode(bytes.slice(), {
        rawStrings: this.raw,
        maxStrLength: limit,
        maxBinLength: limit,
        maxArrayLength: limit,
        maxMapLength: limit,
        maxExtLength: limit,
      });
    } catch (error) {
      throw new DecodeError(
        `${this.name}: the chunk is not valid MessagePack: ${(error as Error).message}`,
      );
    }
    const { elements } = readNestedItems(decoded, spec, this.name, true);
    return {
      data: toContainer(elements, spec, this.name),
      shape: [...spec.shape],
      stride: cOrderStrides(spec.shape),
    };
  }
}

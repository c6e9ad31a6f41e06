import type { ArrayToBytesCodec, ChunkSpec, CodecContext } from "@z/codecs";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { describeValue } from "../describe.js";
import { asBytes } from "../dtype/bytes.js";
import { EncodeError } from "../errors.js";
import { encodeVlen, scanVlen } from "../layout/vlen.js";
import { checkConfigKeys, checkDataType, chunkOf, cOrderElements, elementCount } from "./common.js";

const EMPTY = new Uint8Array(0);

/** A bytes element as numcodecs writes it: `None` and `0` become empty bytes; strings are refused. */
export function bytesElement(value: unknown, index: number, codec: string): Uint8Array {
  const bytes = asBytes(value);
  if (bytes) return bytes;
  if (value === null || value === undefined || value === 0) return EMPTY;
  throw new EncodeError(
    `${codec}: element ${index} is ${describeValue(value)}; only Uint8Arrays (bytes) can be stored`,
  );
}

/** Encodes byte strings in the vlen layout. */
export function encodeByteItems(items: ArrayLike<unknown>, codec: string): Uint8Array {
  const count = items.length;
  const values = new Array<Uint8Array>(count);
  const sizes = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    values[i] = bytesElement(items[i], i, codec);
    sizes[i] = values[i].length;
  }
  return encodeVlen(sizes, count, (i, out, at) => out.set(values[i], at));
}

/**
 * The `vlen-bytes` codec (v3; zarr-python) and numcodecs' `vlen-bytes` object codec (v2):
 * the vlen-utf8 layout with raw bytes. Decoded items are views of one private copy of the
 * chunk, so they never alias the store's buffers.
 */
export class VlenBytesCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  constructor(readonly name: string = "vlen-bytes") {}

  /** Builds the codec (it has no configuration) for chunks of `spec`. */
  static fromConfig(
    name: string,
    configuration: JsonObject,
    { spec }: CodecContext,
  ): VlenBytesCodec {
    checkConfigKeys(name, configuration, []);
    checkDataType(name, spec.dataType, ["bytes", "object"], "vlen-bytes");
    return new VlenBytesCodec(name);
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: {}, mustUnderstand: true };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    return encodeByteItems(cOrderElements(chunk, spec), this.name);
  }

  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk {
    const scan = scanVlen(bytes, elementCount(spec), this.name);
    const own = bytes.slice();
    const items = new Array<Uint8Array>(scan.count);
    for (let i = 0; i < scan.count; i++) items[i] = own.subarray(scan.starts[i], scan.ends[i]);
    return chunkOf(items, spec);
  }
}

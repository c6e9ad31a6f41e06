import type { ArrayToBytesCodec, ChunkSpec, CodecContext } from "@z/codecs";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { describeValue } from "../describe.js";
import { EncodeError } from "../errors.js";
import { decodeItemsInRegion, utf8Length, writeUtf8 } from "../layout/utf8.js";
import { encodeVlen, scanVlen } from "../layout/vlen.js";
import { checkConfigKeys, checkDataType, chunkOf, cOrderElements, elementCount } from "./common.js";

/**
 * A string element as numcodecs writes it: `None` and `0` (the usual v2 fill value) become
 * the empty string; anything else that is not a string is refused.
 */
export function stringElement(value: unknown, index: number, codec: string): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined || value === 0) return "";
  throw new EncodeError(
    `${codec}: element ${index} is ${describeValue(value)}; only strings can be stored`,
  );
}

/** Encodes strings in the vlen layout. */
export function encodeStrings(items: ArrayLike<unknown>, codec: string): Uint8Array {
  const count = items.length;
  const texts = new Array<string>(count);
  const sizes = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const text = stringElement(items[i], i, codec);
    texts[i] = text;
    sizes[i] = utf8Length(text);
  }
  return encodeVlen(sizes, count, (i, out, at) => writeUtf8(texts[i], sizes[i], out, at));
}

/**
 * The `vlen-utf8` codec (v3, zarr-python) and numcodecs' `vlen-utf8` object codec (v2, and
 * `numcodecs.vlen-utf8` in v3): a u32le item count, then each string as a u32le byte length
 * and its UTF-8 bytes, elements in C order. Decoding is strict: a string that is not valid
 * UTF-8 is a DecodeError (as in numcodecs), never replacement characters.
 */
export class VlenUtf8Codec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  constructor(readonly name: string = "vlen-utf8") {}

  /** Builds the codec (it has no configuration) for chunks of `spec`. */
  static fromConfig(
    name: string,
    configuration: JsonObject,
    { spec }: CodecContext,
  ): VlenUtf8Codec {
    checkConfigKeys(name, configuration, []);
    checkDataType(name, spec.dataType, ["string", "object"], "vlen-utf8");
    return new VlenUtf8Codec(name);
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: {}, mustUnderstand: true };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    return encodeStrings(cOrderElements(chunk, spec), this.name);
  }

  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk {
    const scan = scanVlen(bytes, elementCount(spec), this.name);
    return chunkOf(decodeItemsInRegion(bytes, scan, this.name), spec);
  }
}

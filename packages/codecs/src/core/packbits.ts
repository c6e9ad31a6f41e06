import { formatValue } from "@z/errors";
import type { JsonObject, NamedConfig } from "@z/metadata";
import { type PackedComponents, packedComponentsOf } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { CodecConfigError, DecodeError } from "../errors.js";
import type { ArrayToBytesCodec, ChunkSpec } from "../types.js";

/** Where the count of padding bits is stored: nowhere, in a byte before or after the bits. */
export type PackBitsPadding = "none" | "first_byte" | "last_byte";

/** The registry README's names, and the names its schema.json gives the same settings. */
const PADDING_NAMES: Readonly<Record<string, PackBitsPadding>> = {
  none: "none",
  first_byte: "first_byte",
  last_byte: "last_byte",
  start_byte: "first_byte",
  end_byte: "last_byte",
};
const KEYS = new Set(["padding_encoding", "first_bit", "last_bit", "start_bit", "end_bit"]);

/** The bit layout of a chunk: what each component keeps and how many bits an element takes. */
interface Layout extends PackedComponents {
  first: number;
  /** Bits kept per component (`b` in the spec). */
  kept: number;
}

/** Whether every component is kept whole and byte-sized: the packed bits are the raw bytes. */
function byteAligned(layout: Layout): boolean {
  return layout.first === 0 && layout.kept === layout.bits && layout.bits % 8 === 0;
}

/**
 * The `packbits` codec of the zarr-extensions registry (array to bytes): each component keeps
 * the bits `first_bit..last_bit` of its `bytes`-codec little-endian form, concatenated in C
 * order, least significant bit first within each byte, zero-padded to a whole byte; with
 * `padding_encoding` the count of padding bits is a byte before (`first_byte`) or after
 * (`last_byte`) them. Sub-byte types (`bool`, `int2`, `int4`, `float4_e2m1fn`, `float6_*`,
 * their unsigned and complex forms) take their own width; signed integers are sign-extended
 * when decoded.
 */
export class PackBitsArrayToBytesCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = "packbits";

  constructor(
    readonly padding: PackBitsPadding = "none",
    /** The first bit kept (from the least significant), when configured. */
    readonly firstBit?: number,
    /** The last bit kept (inclusive), when configured. */
    readonly lastBit?: number,
  ) {}

  /**
   * Builds the codec from its configuration and checks it against the chunk data type.
   * Accepts the README's names (`first_byte`, `last_byte`, `first_bit`, `last_bit`) and the
   * schema's (`start_byte`, `end_byte`, `start_bit`, `end_bit`); writes the README's.
   * @throws CodecConfigError
   */
  static fromConfig(configuration: JsonObject, spec: ChunkSpec): PackBitsArrayToBytesCodec {
    for (const key of Object.keys(configuration)) {
      if (!KEYS.has(key)) throw new CodecConfigError(`packbits codec: unknown setting "${key}"`);
    }
    const paddingJson = configuration.padding_encoding ?? "none";
    const padding = typeof paddingJson === "string" ? PADDING_NAMES[paddingJson] : undefined;
    if (!padding) {
      throw new CodecConfigError(
        `packbits codec: "padding_encoding" must be "none", "first_byte" or "last_byte", got ${formatValue(paddingJson)}`,
      );
    }
    const bit = (key: string, alias: string): number | undefined => {
      const value = configuration[key] ?? configuration[alias] ?? null;
      if (value === null) return undefined;
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
        throw new CodecConfigError(
          `packbits codec: "${key}" must be a non-negative integer or null, got ${formatValue(value)}`,
        );
      }
      return value;
    };
    const codec = new PackBitsArrayToBytesCodec(
      padding,
      bit("first_bit", "start_bit"),
      bit("last_bit", "end_bit"),
    );
    codec.layout(spec);
    return codec;
  }

  toJson(): NamedConfig {
    const configuration: JsonObject = { padding_encoding: this.padding };
    if (this.firstBit !== undefined) configuration.first_bit = this.firstBit;
    if (this.lastBit !== undefined) configuration.last_bit = this.lastBit;
    return { name: "packbits", configuration, mustUnderstand: true };
  }

  /** The layout for a chunk spec. @throws CodecConfigError */
  private layout(spec: ChunkSpec): Layout {
    const components = packedComponentsOf(spec.dataType);
    if (!components) {
      throw new CodecConfigError(
        `packbits codec: data type ${spec.dataType.name} is not supported (fixed-size numeric types only)`,
      );
    }
    const first = this.firstBit ?? 0;
    const last = this.lastBit ?? components.bits - 1;
    if (last < first || last >= components.bits) {
      throw new CodecConfigError(
        `packbits codec: bits ${first}..${last} must be in order within the ${components.bits} bits of ${spec.dataType.name}`,
      );
    }
    return { ...components, first, kept: last - first + 1 };
  }

  /** Bits of packed data for a chunk and the padding that completes the last byte. */
  private sizes(spec: ChunkSpec, layout: Layout): { dataBytes: number; paddingBits: number } {
    const bits = product(spec.shape) * layout.components * layout.kept;
    const dataBytes = Math.ceil(bits / 8);
    return { dataBytes, paddingBits: dataBytes * 8 - bits };
  }

  encodedSize(spec: ChunkSpec): number {
    return this.sizes(spec, this.layout(spec)).dataBytes + (this.padding === "none" ? 0 : 1);
  }

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    const { dataType } = spec;
    const layout = this.layout(spec);
    const { dataBytes, paddingBits } = this.sizes(spec, layout);
    const ordered = toCOrder(chunk, (n) => dataType.create(n), dataType.lanes);
    const raw = dataType.encode(ordered.data, "little");
    const out = new Uint8Array(dataBytes + (this.padding === "none" ? 0 : 1));
    const offset = this.padding === "first_byte" ? 1 : 0;
    if (this.padding === "first_byte") out[0] = paddingBits;
    if (this.padding === "last_byte") out[dataBytes] = paddingBits;
    if (byteAligned(layout)) {
      out.set(raw, offset);
      return out;
    }
    const count = product(spec.shape) * layout.components;
    const { bytes: size, first, kept } = layout;
    let position = offset * 8;
    for (let c = 0; c < count; c++) {
      const base = c * size;
      for (let j = first; j < first + kept; j++, position++) {
        if ((raw[base + (j >> 3)] >> (j & 7)) & 1) out[position >> 3] |= 1 << (position & 7);
      }
    }
    return out;
  }

  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk {
    const { dataType } = spec;
    const layout = this.layout(spec);
    const { dataBytes, paddingBits } = this.sizes(spec, layout);
    const expected = dataBytes + (this.padding === "none" ? 0 : 1);
    if (bytes.length !== expected) {
      throw new DecodeError(
        `packbits codec: the chunk has ${bytes.length} bytes; ${product(spec.shape)} ${dataType.name} elements of ${layout.components * layout.kept} bits need exactly ${expected}`,
      );
    }
    if (this.padding !== "none") {
      const stored = bytes[this.padding === "first_byte" ? 0 : dataBytes];
      if (stored !== paddingBits) {
        throw new DecodeError(
          `packbits codec: the ${this.padding} says ${stored} padding bits; the chunk has ${paddingBits}`,
        );
      }
    }
    const n = product(spec.shape);
    if (byteAligned(layout)) {
      const start = this.padding === "first_byte" ? 1 : 0;
      return {
        data: dataType.decode(bytes.slice(start, start + dataBytes), n, "little"),
        shape: [...spec.shape],
        stride: cOrderStrides(spec.shape),
      };
    }
    const { bytes: size, first, kept, bits, signed } = layout;
    const count = n * layout.components;
    const raw = new Uint8Array(n * dataType.itemSize);
    let position = this.padding === "first_byte" ? 8 : 0;
    for (let c = 0; c < count; c++) {
      const base = c * size;
      let bit = 0;
      for (let j = first; j < first + kept; j++, position++) {
        bit = (bytes[position >> 3] >> (position & 7)) & 1;
        if (bit) raw[base + (j >> 3)] |= 1 << (j & 7);
      }
      // Sign extension: the last kept bit fills every bit above it, up to the component width.
      if (signed && bit) {
        for (let j = first + kept; j < bits; j++) raw[base + (j >> 3)] |= 1 << (j & 7);
      }
    }
    return {
      data: dataType.decode(raw, n, "little"),
      shape: [...spec.shape],
      stride: cOrderStrides(spec.shape),
    };
  }
}

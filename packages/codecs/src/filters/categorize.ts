import { formatValue } from "@z/errors";
import type { DataType, JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { product, toCOrder } from "@z/ndarray";
import { CodecConfigError, DecodeError } from "../errors.js";
import type { ArrayToArrayCodec, ChunkSpec } from "../types.js";
import { parseDtype } from "./config.js";
import { cOrderChunk, type Elements } from "./elements.js";
import type { FilterDtype } from "./types.js";

const NAME = "numcodecs.categorize";

/**
 * numcodecs' `categorize` filter: text elements become small integers, the position of the
 * element in `labels` plus one (0 for text that is not a label; it decodes to ""). Works on
 * chunks of any data type whose elements are strings: fixed-length `U` arrays (`dtype: "<U4"`),
 * variable-length strings, and v2 object arrays (`dtype: "|O"`) holding strings, written as
 * zarr-python documents it: `Categorize(labels, dtype=object, astype="u1")` as the only filter,
 * the codes then stored as plain bytes.
 */
export class CategorizeCodec implements ArrayToArrayCodec {
  readonly kind = "array_to_array";
  readonly name = NAME;
  private readonly codes: Map<string, number>;

  constructor(
    /** The category labels, in code order (code 1 is the first). */
    readonly labels: readonly string[],
    /** The `dtype` field as configured (`"<U4"`, `"|O"`), written back unchanged. */
    readonly dtype: string,
    /** The integer type of the codes. */
    readonly astype: FilterDtype,
  ) {
    this.codes = new Map(labels.map((label, i) => [label, i + 1]));
  }

  /**
   * Builds the codec from `{labels, dtype, astype?}` for chunks of `spec`.
   * @throws CodecConfigError for a malformed configuration, a code type too small for the
   *   labels, or chunks whose elements are not text
   */
  static fromConfig(configuration: JsonObject, spec?: ChunkSpec): CategorizeCodec {
    const { labels, dtype } = configuration;
    if (!Array.isArray(labels) || !labels.every((l) => typeof l === "string")) {
      throw new CodecConfigError(
        `${NAME}: "labels" must be a list of strings, got ${formatValue(labels)}`,
      );
    }
    if (typeof dtype !== "string" || !/^([<>|=]?U\d+|\|?O)$/.test(dtype)) {
      throw new CodecConfigError(
        `${NAME}: "dtype" must be a unicode ("<U4") or object ("|O") dtype, got ${formatValue(dtype)}`,
      );
    }
    const astype = parseDtype({ astype: configuration.astype ?? "|u1" }, "astype", NAME);
    if (astype.type.kind !== "int" && astype.type.kind !== "uint") {
      throw new CodecConfigError(`${NAME}: "astype" must be an integer type, got ${astype.json}`);
    }
    const largest =
      astype.type.kind === "uint" ? 2 ** astype.type.bits - 1 : 2 ** (astype.type.bits - 1) - 1;
    if (labels.length > largest) {
      throw new CodecConfigError(
        `${NAME}: ${labels.length} labels do not fit in "astype" ${astype.json}`,
      );
    }
    // A v2 object array (`|O`) holds the strings as JavaScript values, as zarr-python's
    // documented use writes it: `Categorize(labels, dtype=object)` with no object codec.
    if (spec && spec.dataType.kind !== "string" && spec.dataType.name !== "object") {
      throw new CodecConfigError(
        `${NAME}: chunks of ${spec.dataType.name} are not text; categorize needs string elements`,
      );
    }
    return new CategorizeCodec(labels as string[], dtype, astype);
  }

  toJson(): NamedConfig {
    return {
      name: NAME,
      configuration: { labels: [...this.labels], dtype: this.dtype, astype: this.astype.json },
      mustUnderstand: true,
    };
  }

  /** The code of one element (0 when it is not a label). */
  private codeOf(value: unknown): number {
    return typeof value === "string" ? (this.codes.get(value) ?? 0) : 0;
  }

  encodedSpec(spec: ChunkSpec): ChunkSpec {
    return {
      shape: [...spec.shape],
      dataType: this.astype.dataType,
      fillValue: this.codeOf(spec.fillValue),
    };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const { dataType } = spec;
    const ordered = toCOrder(chunk, (n) => dataType.create(n), dataType.lanes);
    const n = product(chunk.shape);
    const out = this.astype.dataType.create(n) as unknown as Elements;
    const big = typeof out[0] === "bigint";
    for (let i = 0; i < n; i++) {
      const code = this.codeOf(dataType.getElement(ordered.data, i));
      out[i] = big ? BigInt(code) : code;
    }
    return cOrderChunk(out, chunk.shape);
  }

  decode(chunk: Chunk, spec: ChunkSpec): Chunk {
    const n = product(spec.shape);
    if (product(chunk.shape) !== n) {
      throw new DecodeError(
        `${NAME}: the encoded chunk has ${product(chunk.shape)} codes; the chunk needs exactly ${n}`,
      );
    }
    const codes = toCOrder(chunk, (k) => this.astype.dataType.create(k))
      .data as unknown as Elements;
    const dataType: DataType = spec.dataType;
    const out = dataType.create(n);
    for (let i = 0; i < n; i++) {
      const code = Number(codes[i]);
      // Code 0 (text that was not a label) reads as "", which an object container does not
      // start with, so every element is set.
      const label = code >= 1 && code <= this.labels.length ? this.labels[code - 1] : "";
      dataType.setElement(out, i, label);
    }
    return cOrderChunk(out, spec.shape);
  }
}

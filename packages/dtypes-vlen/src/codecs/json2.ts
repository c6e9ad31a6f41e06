import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  type CodecContext,
  DecodeError,
} from "@z/codecs";
import { formatValue } from "@z/errors";
import type { JsonObject, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides } from "@z/ndarray";
import { type PythonJsonStyle, parsePythonJson, pythonJsonDumps } from "../json/python-json.js";
import { checkConfigKeys, checkDataType, cOrderElements } from "./common.js";
import { nestElements, readNestedItems } from "./nested-items.js";
import { elementValues, numpyDtypeOf, toContainer } from "./object-elements.js";

const CONFIG_KEYS = [
  "encoding",
  "skipkeys",
  "ensure_ascii",
  "check_circular",
  "allow_nan",
  "sort_keys",
  "indent",
  "separators",
  "strict",
] as const;

const textDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const textEncoder = new TextEncoder();

function flag(configuration: JsonObject, key: string, fallback: boolean, codec: string): boolean {
  const value = configuration[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== "boolean")
    throw new CodecConfigError(
      `${codec}: "${key}" must be true or false, got ${formatValue(value)}`,
    );
  return value;
}

function parseStyle(configuration: JsonObject, codec: string): PythonJsonStyle {
  const encoding = configuration.encoding ?? "utf-8";
  if (typeof encoding !== "string" || !/^utf-?8$/i.test(encoding)) {
    throw new CodecConfigError(
      `${codec}: only the utf-8 encoding is supported, got ${formatValue(encoding)}`,
    );
  }
  const indentJson = configuration.indent ?? null;
  if (
    indentJson !== null &&
    typeof indentJson !== "number" &&
    typeof indentJson !== "string" &&
    typeof indentJson !== "boolean"
  ) {
    throw new CodecConfigError(`${codec}: "indent" must be null, a number, a string or a boolean`);
  }
  const indent = indentJson as PythonJsonStyle["indent"];
  let separators: [string, string] = indent === null ? [",", ":"] : [", ", ": "];
  const given = configuration.separators;
  if (given !== undefined && given !== null) {
    if (!Array.isArray(given) || given.length !== 2 || !given.every((s) => typeof s === "string")) {
      throw new CodecConfigError(`${codec}: "separators" must be a pair of strings`);
    }
    separators = [given[0] as string, given[1] as string];
  }
  return {
    indent,
    separators,
    sortKeys: flag(configuration, "sort_keys", true, codec),
    ensureAscii: flag(configuration, "ensure_ascii", true, codec),
    allowNan: flag(configuration, "allow_nan", true, codec),
  };
}

/**
 * numcodecs' `json2` object codec (v2): the chunk as Python's `json.dumps` writes
 * `[...elements nested by dimension, dtype, shape]`, byte for byte (see
 * {@link pythonJsonDumps} for how JavaScript numbers map to Python ints and floats). Also the
 * legacy `json` codec, which writes no shape. Decoding accepts `NaN` and `Infinity`, checks the
 * shape and the element count, and never recurses deeper than 1000 levels.
 */
export class Json2Codec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";

  constructor(
    readonly name: string,
    private readonly configuration: JsonObject,
    private readonly style: PythonJsonStyle,
  ) {}

  /** Builds the codec (`numcodecs.json2` or the legacy `numcodecs.json`) from its configuration. */
  static fromConfig(name: string, configuration: JsonObject, { spec }: CodecContext): Json2Codec {
    checkConfigKeys(name, configuration, CONFIG_KEYS);
    checkDataType(name, spec.dataType, ["any"], name.replace("numcodecs.", ""));
    return new Json2Codec(name, configuration, parseStyle(configuration, name));
  }

  /** Whether the encoding ends with the shape (json2) or not (the legacy json codec). */
  private get withShape(): boolean {
    return this.name !== "numcodecs.json";
  }

  toJson(): NamedConfig {
    return { name: this.name, configuration: this.configuration, mustUnderstand: true };
  }

  encode(chunk: Chunk, spec: ChunkSpec): Uint8Array {
    const items: unknown[] = nestElements(
      elementValues(cOrderElements(chunk, spec), spec),
      spec.shape,
    );
    items.push(numpyDtypeOf(spec));
    if (this.withShape) items.push([...spec.shape]);
    return textEncoder.encode(pythonJsonDumps(items, this.style));
  }

  decode(bytes: Uint8Array, spec: ChunkSpec): Chunk {
    let text: string;
    try {
      text = textDecoder.decode(bytes);
    } catch {
      throw new DecodeError(`${this.name}: the chunk is not valid UTF-8 text`);
    }
    let parsed: unknown;
    try {
      parsed = parsePythonJson(text);
    } catch (error) {
      throw new DecodeError(
        `${this.name}: the chunk is not valid JSON: ${(error as Error).message}`,
      );
    }
    const { elements } = readNestedItems(parsed, spec, this.name, this.withShape);
    return {
      data: toContainer(elements, spec, this.name),
      shape: [...spec.shape],
      stride: cOrderStrides(spec.shape),
    };
  }
}

/**
 * numcodecs' default json2 configuration (what `numcodecs.JSON().get_config()` gives, without
 * the id), with `overrides` applied: the configuration to write for a json2 object array.
 */
export function json2Configuration(overrides: JsonObject = {}): JsonObject {
  return {
    allow_nan: true,
    check_circular: true,
    encoding: "utf-8",
    ensure_ascii: true,
    indent: null,
    separators: [",", ":"],
    skipkeys: false,
    sort_keys: true,
    strict: true,
    ...overrides,
  };
}

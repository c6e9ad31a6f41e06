import { formatValue } from "@z/errors";
import { MetadataError, UnsupportedExtensionError } from "./errors.js";
import type { NamedConfig } from "./extension.js";
import type { JsonObject } from "./json.js";

/** Maps chunk grid coordinates to store keys (relative to the array's path) and back. */
export interface ChunkKeyEncoding {
  /** The registered name (`default`, `v2`). */
  readonly name: string;
  /** The separator between coordinates. */
  readonly separator: "/" | ".";
  /** The key of the chunk at `coords`. */
  encode(coords: readonly number[]): string;
  /** The coordinates of a chunk key, or `undefined` if the key is not a chunk key of this encoding. */
  decode(key: string, ndim: number): number[] | undefined;
  /** The metadata JSON form. */
  toJson(): JsonObject;
}

function parseCoords(parts: string[], ndim: number): number[] | undefined {
  if (parts.length !== ndim) return undefined;
  const coords = parts.map((p) => (/^(0|[1-9]\d*)$/.test(p) ? Number(p) : Number.NaN));
  return coords.some(Number.isNaN) ? undefined : coords;
}

/** The v3 `default` encoding: `c/1/2` (or `c.1.2`), and `c` for a 0-d array. */
export class DefaultChunkKeyEncoding implements ChunkKeyEncoding {
  readonly name = "default";
  constructor(readonly separator: "/" | "." = "/") {}
  encode(coords: readonly number[]): string {
    return coords.length === 0 ? "c" : `c${this.separator}${coords.join(this.separator)}`;
  }
  decode(key: string, ndim: number): number[] | undefined {
    if (ndim === 0) return key === "c" ? [] : undefined;
    if (!key.startsWith(`c${this.separator}`)) return undefined;
    return parseCoords(key.slice(2).split(this.separator), ndim);
  }
  toJson(): JsonObject {
    return { name: "default", configuration: { separator: this.separator } };
  }
}

/** The `v2` encoding: `1.2` (or `1/2`), and `0` for a 0-d array. */
export class V2ChunkKeyEncoding implements ChunkKeyEncoding {
  readonly name = "v2";
  constructor(readonly separator: "/" | "." = ".") {}
  encode(coords: readonly number[]): string {
    return coords.length === 0 ? "0" : coords.join(this.separator);
  }
  decode(key: string, ndim: number): number[] | undefined {
    if (ndim === 0) return key === "0" ? [] : undefined;
    return parseCoords(key.split(this.separator), ndim);
  }
  toJson(): JsonObject {
    return { name: "v2", configuration: { separator: this.separator } };
  }
}

function separatorOf(config: NamedConfig, fallback: "/" | "."): "/" | "." {
  const separator = config.configuration.separator ?? fallback;
  if (separator !== "/" && separator !== ".") {
    throw new MetadataError(
      `chunk_key_encoding "${config.name}" has separator ${formatValue(separator)}; expected "/" or "."`,
    );
  }
  return separator;
}

/** Builds a chunk key encoding from its metadata. */
export type ChunkKeyEncodingFactory = (config: NamedConfig) => ChunkKeyEncoding;

const encodings = new Map<string, ChunkKeyEncodingFactory>([
  ["default", (config) => new DefaultChunkKeyEncoding(separatorOf(config, "/"))],
  ["v2", (config) => new V2ChunkKeyEncoding(separatorOf(config, "."))],
]);

/** Registers a chunk key encoding extension under its name. */
export function registerChunkKeyEncoding(name: string, factory: ChunkKeyEncodingFactory): void {
  encodings.set(name, factory);
}

/**
 * The chunk key encoding v3 metadata describes.
 * @throws UnsupportedExtensionError for an unknown encoding (ignoring `must_understand`: a
 *   reader that cannot name chunks cannot read the array at all)
 */
export function resolveChunkKeyEncoding(config: NamedConfig): ChunkKeyEncoding {
  const factory = encodings.get(config.name);
  if (!factory) {
    throw new UnsupportedExtensionError(
      `Unknown chunk_key_encoding "${config.name}"; known: ${[...encodings.keys()].join(", ")}`,
    );
  }
  return factory(config);
}

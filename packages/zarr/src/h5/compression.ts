import type { ArrayOptions, CodecSpec } from "@z/array";
import { formatValue } from "@z/errors";
import type { DataType, JsonObject, NamedConfig } from "@z/metadata";
import { H5ValueError } from "./errors.js";

/** A compression filter as h5py names it, plus the Zarr compressors it does not have. */
export type Compression = "gzip" | "zstd" | "blosc" | "lz4" | number;

/** Blosc settings for `compression_opts` (numcodecs' names). */
export interface BloscOptions {
  /** "lz4" (default), "lz4hc", "blosclz", "zstd", "zlib", "snappy". */
  cname?: string;
  /** 0-9 (default 5). */
  clevel?: number;
  /** "shuffle" (default), "noshuffle", "bitshuffle", or numcodecs' 1, 0, 2. */
  shuffle?: "shuffle" | "noshuffle" | "bitshuffle" | 0 | 1 | 2;
}

const SHUFFLE_NAMES = ["noshuffle", "shuffle", "bitshuffle"] as const;

function level(opts: unknown, fallback: number, max: number, what: string): number {
  if (opts === undefined || opts === null) return fallback;
  if (typeof opts !== "number" || !Number.isInteger(opts) || opts < 0 || opts > max) {
    throw new H5ValueError(
      `compression_opts for ${what} must be an integer from 0 to ${max}, got ${formatValue(opts, { bigint: "suffix" })}`,
    );
  }
  return opts;
}

/**
 * The codec options of `createArray` for h5py's `compression`, `compression_opts`, `shuffle`
 * and `fletcher32`: gzip (level 0-9, default 4 as in h5py; an integer `compression` is a gzip
 * level), zstd (level, default 3), blosc (`{cname, clevel, shuffle}` or a level), lz4
 * (acceleration, default 1). `shuffle` adds the byte-shuffle filter; `fletcher32` a crc32c
 * checksum (Zarr's checksum codec).
 * @throws H5ValueError for HDF5-only filters (lzf, szip) or bad options
 */
export function compressionCodecs(
  compression: Compression | null | undefined,
  opts: unknown,
  extra: { shuffle?: boolean; fletcher32?: boolean; dataType: DataType; zarrFormat: 2 | 3 },
): Pick<ArrayOptions, "compressors"> {
  // One v3-style list for both formats: createArray turns all but the last bytes codec into
  // v2 filters.
  const v3 = extra.zarrFormat === 3;
  const compressors: CodecSpec[] = [];
  const elementsize = extra.dataType.itemSize;
  if (extra.shuffle)
    compressors.push({ name: "numcodecs.shuffle", configuration: { elementsize } });
  let kind = compression;
  let options = opts;
  if (typeof kind === "number") {
    options = kind;
    kind = "gzip";
  }
  switch (kind) {
    case undefined:
    case null:
      if (opts !== undefined && opts !== null)
        throw new H5ValueError("compression_opts given without compression");
      break;
    case "gzip": {
      const l = level(options, 4, 9, "gzip");
      compressors.push(
        v3 ? { name: "gzip", configuration: { level: l } } : { id: "gzip", level: l },
      );
      break;
    }
    case "zstd": {
      const l = level(options, 3, 22, "zstd");
      compressors.push(
        v3
          ? { name: "zstd", configuration: { level: l, checksum: false } }
          : { id: "zstd", level: l },
      );
      break;
    }
    case "lz4": {
      const acceleration =
        options === undefined || options === null ? 1 : level(options, 1, 2 ** 16, "lz4");
      compressors.push(
        v3
          ? { name: "numcodecs.lz4", configuration: { acceleration } }
          : { id: "lz4", acceleration },
      );
      break;
    }
    case "blosc": {
      const o: BloscOptions =
        typeof options === "number" ? { clevel: options } : ((options ?? {}) as BloscOptions);
      if (typeof o !== "object")
        throw new H5ValueError(
          "compression_opts for blosc must be a level or {cname, clevel, shuffle}",
        );
      const clevel = level(o.clevel, 5, 9, "blosc");
      const cname = o.cname ?? "lz4";
      const shuffle =
        typeof o.shuffle === "number" ? SHUFFLE_NAMES[o.shuffle] : (o.shuffle ?? "shuffle");
      if (!SHUFFLE_NAMES.includes(shuffle))
        throw new H5ValueError(
          `Unknown blosc shuffle ${formatValue(o.shuffle, { bigint: "suffix" })}`,
        );
      compressors.push(
        v3
          ? {
              name: "blosc",
              configuration: { cname, clevel, shuffle, typesize: elementsize, blocksize: 0 },
            }
          : { id: "blosc", cname, clevel, shuffle: SHUFFLE_NAMES.indexOf(shuffle), blocksize: 0 },
      );
      break;
    }
    default:
      throw new H5ValueError(
        `Compression filter ${formatValue(kind, { bigint: "suffix" })} is not available in Zarr; use "gzip", "zstd", "blosc" or "lz4"`,
      );
  }
  if (extra.fletcher32) compressors.push(v3 ? { name: "crc32c" } : { id: "crc32c" });
  return { compressors };
}

/** The bytes-to-bytes codecs of an array (the inner ones of a sharded array). */
function bytesCodecs(codecs: readonly NamedConfig[]): NamedConfig[] {
  const sharding = codecs.find((c) => c.name === "sharding_indexed");
  if (sharding && Array.isArray(sharding.configuration.codecs)) {
    return (sharding.configuration.codecs as JsonObject[]).map((c) => ({
      name: String(c.name),
      configuration: (c.configuration ?? {}) as JsonObject,
      mustUnderstand: true,
    }));
  }
  return [...codecs];
}

const NAMES: Record<string, "gzip" | "zstd" | "blosc" | "lz4"> = {
  gzip: "gzip",
  "numcodecs.gzip": "gzip",
  zlib: "gzip",
  "numcodecs.zlib": "gzip",
  zstd: "zstd",
  "numcodecs.zstd": "zstd",
  blosc: "blosc",
  "numcodecs.blosc": "blosc",
  "numcodecs.lz4": "lz4",
};

/** h5py's `compression` and `compression_opts` of an array's codecs (null when uncompressed). */
export function compressionOf(codecs: readonly NamedConfig[]): {
  compression: string | null;
  opts: unknown;
} {
  for (const codec of bytesCodecs(codecs)) {
    const kind = NAMES[codec.name];
    if (!kind) continue;
    const c = codec.configuration;
    if (kind === "gzip" || kind === "zstd") return { compression: kind, opts: c.level ?? null };
    if (kind === "lz4") return { compression: kind, opts: c.acceleration ?? null };
    const shuffle = typeof c.shuffle === "number" ? SHUFFLE_NAMES[c.shuffle] : c.shuffle;
    return { compression: kind, opts: { cname: c.cname, clevel: c.clevel, shuffle } };
  }
  return { compression: null, opts: null };
}

/** Whether an array's codecs include the byte-shuffle filter (h5py's `shuffle`). */
export function hasShuffle(codecs: readonly NamedConfig[]): boolean {
  return bytesCodecs(codecs).some((c) => c.name === "numcodecs.shuffle");
}

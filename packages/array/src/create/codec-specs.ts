import type { DataType, JsonObject, NamedConfig } from "@z/metadata";
import { NUMCODECS_PREFIX } from "@z/metadata/internal";

/**
 * A codec as users may write it: a v3 name (`"gzip"`), a v3 entry
 * (`{name: "gzip", configuration: {level: 5}}`), or a numcodecs configuration
 * (`{id: "zlib", level: 1}`, which becomes the `numcodecs.zlib` codec).
 */
export type CodecSpec =
  | string
  | { name: string; configuration?: Record<string, unknown>; must_understand?: boolean }
  | { id: string; [field: string]: unknown };

/** Normalises a {@link CodecSpec} to a metadata entry. */
export function toNamedConfig(spec: CodecSpec): NamedConfig {
  if (typeof spec === "string") return { name: spec, configuration: {}, mustUnderstand: true };
  if ("id" in spec && typeof spec.id === "string") {
    const { id, ...configuration } = spec;
    return {
      name: `${NUMCODECS_PREFIX}${id}`,
      configuration: configuration as JsonObject,
      mustUnderstand: true,
    };
  }
  const entry = spec as {
    name: string;
    configuration?: Record<string, unknown>;
    must_understand?: boolean;
  };
  return {
    name: entry.name,
    configuration: (entry.configuration ?? {}) as JsonObject,
    mustUnderstand: entry.must_understand ?? true,
  };
}

/**
 * The default serializer: the data type's own choice when it has one (`vlen-utf8` for
 * strings, `vlen-bytes` for bytes, `z.arrow-ipc` for Arrow), otherwise `bytes`
 * (little-endian for multi-byte types).
 */
export function defaultSerializer(
  dataType: DataType,
  endian: "little" | "big" = "little",
): NamedConfig {
  const own = dataType.defaultSerializer?.();
  if (own) return { name: own.name, configuration: own.configuration ?? {}, mustUnderstand: true };
  return {
    name: "bytes",
    configuration: dataType.endianSensitive ? { endian } : {},
    mustUnderstand: true,
  };
}

/** The default compressor, as zarr-python 3 chooses it: zstd at its default level. */
export const DEFAULT_COMPRESSOR: NamedConfig = {
  name: "zstd",
  configuration: { level: 0, checksum: false },
  mustUnderstand: true,
};

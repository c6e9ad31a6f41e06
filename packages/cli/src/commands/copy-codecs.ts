import type { JsonObject, NamedConfig, ZarrArray } from "@z/zarr";
import { UsageError } from "../errors.js";

/** The compressors `zarr copy --compressor` offers. */
export const COMPRESSOR_CHOICES = ["none", "gzip", "zstd", "blosc"] as const;

/** One of {@link COMPRESSOR_CHOICES}. */
export type CompressorChoice = (typeof COMPRESSOR_CHOICES)[number];

function entry(name: string, configuration: JsonObject): NamedConfig {
  return { name, configuration, mustUnderstand: true };
}

function compressorEntries(choice: CompressorChoice, itemSize: number): NamedConfig[] {
  switch (choice) {
    case "none":
      return [];
    case "gzip":
      return [entry("gzip", { level: 5 })];
    case "zstd":
      return [entry("zstd", { level: 0, checksum: false })];
    case "blosc":
      return [
        entry("blosc", {
          cname: "lz4",
          clevel: 5,
          shuffle: itemSize > 1 ? "shuffle" : "bitshuffle",
          typesize: Math.max(1, itemSize),
          blocksize: 0,
        }),
      ];
  }
}

/** numcodecs compressors with a v3-native equivalent, translated to it. */
function toV3Native(codec: NamedConfig, itemSize: number): NamedConfig {
  const c = codec.configuration;
  switch (codec.name) {
    case "numcodecs.gzip":
      return entry("gzip", { level: c.level ?? 5 });
    case "numcodecs.zstd":
      return entry("zstd", { level: c.level ?? 0, checksum: c.checksum ?? false });
    case "numcodecs.crc32c":
      return entry("crc32c", {});
    case "numcodecs.vlen-utf8":
      return entry("vlen-utf8", {});
    case "numcodecs.vlen-bytes":
      return entry("vlen-bytes", {});
    case "numcodecs.blosc": {
      const shuffle = c.shuffle === -1 ? (itemSize === 1 ? 2 : 1) : (c.shuffle ?? 1);
      return entry("blosc", {
        cname: c.cname ?? "lz4",
        clevel: c.clevel ?? 5,
        shuffle: ["noshuffle", "shuffle", "bitshuffle"][shuffle as number] ?? "shuffle",
        typesize: Math.max(1, itemSize),
        blocksize: c.blocksize ?? 0,
      });
    }
    default:
      return codec;
  }
}

/**
 * The codec list of the copy: the source's codecs (with numcodecs compressors turned into
 * their v3 equivalents when writing v3), or, with `--compressor`, the source's array-level
 * codecs and serializer followed by the chosen compressor.
 */
export function copyCodecs(
  source: ZarrArray,
  zarrFormat: 2 | 3,
  compressor: CompressorChoice | undefined,
): NamedConfig[] {
  const itemSize = source.dataType.itemSize;
  const pipeline = source.io.pipeline;
  let codecs: NamedConfig[] = source.metadata.codecs;
  if (compressor !== undefined) {
    const kept = [
      ...pipeline.arrayToArray.map((stage) => stage.codec),
      pipeline.arrayToBytes.codec,
    ];
    codecs = [...kept.map((codec) => codec.toJson()), ...compressorEntries(compressor, itemSize)];
  }
  if (zarrFormat === 2 && codecs.some((c) => c.name === "sharding_indexed")) {
    throw new UsageError(
      "The source array is sharded; Zarr v2 has no sharding. Copy it with --format 3.",
    );
  }
  return zarrFormat === 3 ? codecs.map((c) => toV3Native(c, itemSize)) : codecs;
}

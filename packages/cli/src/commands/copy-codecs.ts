import type { JsonObject, NamedConfig } from "@z/zarr";

/** The compressors `zarr copy --compressor` offers. */
export const COMPRESSOR_CHOICES = ["none", "gzip", "zstd", "blosc"] as const;

/** One of {@link COMPRESSOR_CHOICES}. */
export type CompressorChoice = (typeof COMPRESSOR_CHOICES)[number];

/** Whether a string is one of {@link COMPRESSOR_CHOICES}. */
export function isCompressorChoice(value: string): value is CompressorChoice {
  return (COMPRESSOR_CHOICES as readonly string[]).includes(value);
}

function entry(name: string, configuration: JsonObject): NamedConfig {
  return { name, configuration, mustUnderstand: true };
}

/**
 * The bytes-to-bytes codecs of a `--compressor` choice, for chunks of elements of `itemSize`
 * bytes (blosc shuffles bytes of multi-byte elements, bits of single bytes).
 */
export function compressorEntries(choice: CompressorChoice, itemSize: number): NamedConfig[] {
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

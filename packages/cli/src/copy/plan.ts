import {
  type ArrayOptions,
  CodecConfigError,
  checkCopyMetadata,
  copyArrayOptions,
  type ZarrArray,
} from "@z/zarr";
import { type CompressorChoice, compressorEntries } from "../commands/copy-codecs.js";
import { CopyOptionError } from "./copy-option-error.js";

/** What a copy changes, as `zarr copy` takes it. */
export interface CopyChanges {
  /** The destination format (default: each node's own). */
  format?: 2 | 3;
  /** A new compressor for every array. */
  compressor?: CompressorChoice;
  /** A new (inner) chunk shape for every array. */
  chunks?: number[];
  /** A shard shape for every array (v3): its chunks stored many to a shard. */
  shards?: number[];
}

/** The options given, as the command line spells them (for error messages). */
export function describeChanges(changes: CopyChanges): string {
  const parts: string[] = [];
  if (changes.format !== undefined) parts.push(`--format ${changes.format}`);
  if (changes.compressor !== undefined) parts.push(`--compressor ${changes.compressor}`);
  if (changes.chunks !== undefined) parts.push(`--chunks ${changes.chunks.join(",")}`);
  if (changes.shards !== undefined) parts.push(`--shards ${changes.shards.join(",")}`);
  return parts.length > 0 ? parts.join(" ") : "no options";
}

/**
 * The creation options of the copy of one array: the library's copy defaults
 * (`copyArrayOptions`, which `copyNode` and `fromArray` use too) with the command's changes,
 * checked the way the copy will use them (metadata that reads back, every codec known,
 * compressors that can encode when chunks are re-encoded), without any I/O.
 * @throws CopyOptionError naming the option and the array
 */
export async function planArray(source: ZarrArray, changes: CopyChanges): Promise<ArrayOptions> {
  const { shards } = changes;
  // New shards take the source's (inner) chunks apart unless new chunks are given.
  const chunks = changes.chunks ?? (shards ? source.chunks : undefined);
  const format = changes.format ?? source.zarrFormat;
  for (const [option, shape] of [
    ["chunks", chunks],
    ["shards", shards],
  ] as const) {
    if (shape && shape.length !== source.ndim) {
      throw new CopyOptionError(
        `--${option} ${shape.join(",")}`,
        source.path,
        `it has ${shape.length} extent${shape.length === 1 ? "" : "s"}; the array has ${source.ndim} dimension${source.ndim === 1 ? "" : "s"}`,
      );
    }
  }
  if (chunks?.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new CopyOptionError(
      `--chunks ${chunks.join(",")}`,
      source.path,
      "chunk extents must be positive integers",
    );
  }
  try {
    const compressors =
      changes.compressor === undefined
        ? undefined
        : compressorEntries(changes.compressor, source.dataType.itemSize);
    const options = copyArrayOptions(source, { zarrFormat: format, compressors, chunks });
    if (shards) options.shards = shards;
    await checkCopyMetadata(source, options);
    return options;
  } catch (error) {
    let reason = error instanceof Error ? error.message : String(error);
    if (error instanceof CodecConfigError && changes.compressor === undefined)
      reason += " (choose another compressor with --compressor)";
    throw new CopyOptionError(describeChanges(changes), source.path, reason, { cause: error });
  }
}

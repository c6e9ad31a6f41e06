import {
  type CodecPipeline,
  type JsonObject,
  MetadataError,
  type NamedConfig,
  namedConfigToJson,
  ShardingCodec,
  uniformChunkShape,
  type ZarrArray,
} from "@z/zarr";

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

/** The codecs of one level of a pipeline: array-to-array, the serializer, bytes-to-bytes. */
interface Level {
  before: NamedConfig[];
  serializer: NamedConfig;
  after: NamedConfig[];
}

/** One sharding level of an array: its shard shape, its codec and the codecs around it. */
export interface ShardLevel {
  /**
   * The shard shape of this level (the array's chunk grid for the outermost one; empty for a
   * grid whose chunks differ, a rectilinear one).
   */
  shape: number[];
  /** The `sharding_indexed` codec of this level. */
  codec: ShardingCodec;
  /** Array-to-array codecs applied to whole shards of this level, before the sharding codec. */
  before: NamedConfig[];
  /** Bytes-to-bytes codecs applied to whole encoded shards of this level. */
  after: NamedConfig[];
}

/** How an array stores its chunks, with its sharding levels (if any) taken apart. */
export interface StoredLayout {
  /** The sharding levels, outermost first; empty for an unsharded array. */
  shards: ShardLevel[];
  /**
   * The shape of the innermost chunks, the ones the codecs below encode (empty for an
   * unsharded array whose chunks differ, on a rectilinear grid).
   */
  chunkShape: number[];
  /** The innermost array-to-array codecs. */
  before: NamedConfig[];
  /** The innermost array-to-bytes codec. */
  serializer: NamedConfig;
  /** The innermost bytes-to-bytes codecs (compressors, checksums). */
  after: NamedConfig[];
}

function levelOf(pipeline: CodecPipeline): Level {
  return {
    before: pipeline.arrayToArray.map((stage) => stage.codec.toJson()),
    serializer: pipeline.arrayToBytes.codec.toJson(),
    after: pipeline.bytesToBytes.map((codec) => codec.toJson()),
  };
}

/** Takes an array's codecs apart: each sharding level (nested sharding included) and the innermost codecs. */
export function storedLayoutOf(array: ZarrArray): StoredLayout {
  const shards: ShardLevel[] = [];
  let pipeline = array.io.pipeline;
  let shape = [...(array.metadata.chunkGrid.chunkShape ?? [])];
  for (;;) {
    const codec = pipeline.arrayToBytes.codec;
    if (!(codec instanceof ShardingCodec)) break;
    const { before, after } = levelOf(pipeline);
    shards.push({ shape, codec, before, after });
    shape = [...codec.configuration.chunkShape];
    pipeline = codec.inner;
  }
  return { shards, chunkShape: shape, ...levelOf(pipeline) };
}

/** The chunking and codec options of a copy, as `createArray` takes them. */
export interface CopyLayout {
  /**
   * The chunk shape: the inner chunk shape when `shards` is set, otherwise the chunk grid
   * (the shard shape of a copy that keeps the source's sharding codecs as they are). Not set
   * when `chunkGrid` is.
   */
  chunks?: number[];
  /** The source's chunk grid as it is, when its chunks differ (rectilinear) and stay. */
  chunkGrid?: JsonObject;
  /** The shard shape, when the copy is sharded. */
  shards?: number[];
  /** Where the shard index goes, when the copy is sharded. */
  shardIndexLocation?: "start" | "end";
  /** The codecs of each chunk (of each inner chunk when sharded). */
  codecs: NamedConfig[];
}

/** What a copy changes about an array's storage. */
export interface LayoutChanges {
  /** The destination format. */
  format: 2 | 3;
  /** A new compressor for the innermost chunks. */
  compressor?: CompressorChoice;
  /** A new (inner) chunk shape. */
  chunks?: number[];
}

function shardingEntry(level: ShardLevel, inner: NamedConfig[]): NamedConfig {
  const c = level.codec.configuration;
  return entry("sharding_indexed", {
    chunk_shape: [...c.chunkShape],
    codecs: inner.map(namedConfigToJson),
    index_codecs: c.indexCodecs.map(namedConfigToJson),
    index_location: c.indexLocation,
  });
}

/** `n` rounded up to a multiple of `unit`. */
const roundUp = (n: number, unit: number) => Math.max(1, Math.ceil(n / unit)) * unit;

/**
 * The storage of a copy of `source`:
 * - to v3 without new chunks: the same chunk grid and codecs, sharding (nested too, with its
 *   index codecs and location) included; numcodecs codecs with a v3 equivalent are written
 *   under their v3 names.
 * - to v2, which has no sharding: a sharded array is written with its innermost chunks as v2
 *   chunks (the unit readers fetch), encoded by its innermost codecs.
 * - `compressor` replaces the bytes-to-bytes codecs of the innermost chunks (inside shards).
 * - `chunks` sets the (innermost) chunk shape; a sharded v3 copy then has one level of
 *   sharding whose shard shape is the source's, rounded up to a multiple of the new chunks.
 * Taking shards apart (to v2, or with `chunks`) drops bytes-to-bytes codecs that compressed
 * whole shards.
 * - a rectilinear chunk grid (chunks of different shapes) stays as it is in a v3 copy without
 *   `chunks`; v2 and `chunks` need one chunk shape.
 * @throws MetadataError when shards must be taken apart but array-to-array codecs (a
 *   transpose) work on whole shards: their inner chunk shape is not in the array's axes;
 *   ChunkGridError for a rectilinear grid copied to v2 or with `chunks`
 */
export function copyLayout(source: ZarrArray, changes: LayoutChanges): CopyLayout {
  const itemSize = source.dataType.itemSize;
  const grid = source.metadata.chunkGrid;
  const keepsGrid = changes.format === 3 && changes.chunks === undefined;
  // Throws, naming the copy, unless the grid's chunks have one shape or the grid stays.
  if (!keepsGrid)
    uniformChunkShape(
      grid,
      `zarr copy of /${source.path} to v${changes.format}${changes.chunks ? " with --chunks" : ""}`,
    );
  const sameGrid = grid.chunkShape ? {} : { chunkGrid: grid.toJson() };
  const layout = storedLayoutOf(source);
  const after =
    changes.compressor === undefined
      ? layout.after
      : compressorEntries(changes.compressor, itemSize);
  const native = (codecs: NamedConfig[]) =>
    changes.format === 3 ? codecs.map((c) => toV3Native(c, itemSize)) : codecs;
  const innermost = native([...layout.before, layout.serializer, ...after]);
  const [outer] = layout.shards;
  if (outer === undefined) {
    if (grid.chunkShape === undefined) return { ...sameGrid, codecs: innermost };
    return { chunks: changes.chunks ?? layout.chunkShape, codecs: innermost };
  }
  if (keepsGrid) {
    // Rebuilt from the inside out, so every level keeps its own settings.
    let codecs = innermost;
    for (const level of [...layout.shards].reverse())
      codecs = [...native(level.before), shardingEntry(level, codecs), ...native(level.after)];
    return grid.chunkShape ? { chunks: [...outer.shape], codecs } : { ...sameGrid, codecs };
  }
  const wholeShard = layout.shards.find((level) => level.before.length > 0);
  if (wholeShard) {
    throw new MetadataError(
      `its codecs ${wholeShard.before.map((c) => c.name).join(", ")} work on whole shards, so its shards cannot be taken apart; copy it to v3 without --chunks`,
    );
  }
  const chunks = changes.chunks ?? layout.chunkShape;
  if (changes.format === 2) return { chunks, codecs: innermost };
  return {
    chunks,
    shards: outer.shape.map((n, axis) => roundUp(n, chunks[axis])),
    shardIndexLocation: outer.codec.indexLocation,
    codecs: innermost,
  };
}

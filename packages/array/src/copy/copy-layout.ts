import { CodecPipeline } from "@z/codecs";
import {
  type JsonObject,
  MetadataError,
  type NamedConfig,
  namedConfigToJson,
  uniformChunkShape,
} from "@z/metadata";
import { type CodecSpec, toNamedConfig } from "../create/codec-specs.js";
import type { ZarrArray } from "../nodes/array.js";

// How a copy of an array stores its chunks in the destination format: the codec translation
// between the formats and the taking apart of shards, shared by copyNode, fromArray and the
// `zarr copy` command.

function entry(name: string, configuration: JsonObject): NamedConfig {
  return { name, configuration, mustUnderstand: true };
}

/**
 * A numcodecs codec (`numcodecs.<id>`, as v2 arrays name theirs) under the v3 name of its
 * equivalent when v3 has one (`gzip`, `zstd`, `blosc`, `crc32c`, `vlen-utf8`, `vlen-bytes`),
 * so other v3 readers know it; otherwise unchanged (zarr-python 3 reads `numcodecs.*`).
 * @param itemSize the element size of the chunks the codec sees (blosc's `typesize`)
 */
export function toV3Codec(codec: NamedConfig, itemSize: number): NamedConfig {
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
      // numcodecs' -1 (AUTOSHUFFLE) is bit shuffling for one-byte elements, byte shuffling otherwise.
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
 * numcodecs compressors that are array-to-bytes codecs in v3: a v2 array compresses its chunks'
 * bytes with them, a v3 array encodes its chunks with them in place of `bytes` (as zarr-python 3
 * and zarrs write such arrays).
 */
const SERIALIZERS_IN_V3 = new Set(["numcodecs.zfpy"]);

/** The innermost codecs of a v3 copy: a v2 compressor that v3 has as a serializer becomes it. */
function serializerInV3<C extends { serializer: NamedConfig; compressors: NamedConfig[] }>(
  format: 2 | 3,
  codecs: C,
): C {
  const [first, ...rest] = codecs.compressors;
  if (
    format !== 3 ||
    codecs.serializer.name !== "bytes" ||
    first === undefined ||
    !SERIALIZERS_IN_V3.has(first.name)
  )
    return codecs;
  return { ...codecs, serializer: first, compressors: rest };
}

/** The codecs of one level of a pipeline: array-to-array, the serializer, bytes-to-bytes. */
interface Level {
  before: NamedConfig[];
  serializer: NamedConfig;
  after: NamedConfig[];
}

/** One sharding level of an array: its shard shape, its configuration and the codecs around it. */
export interface ShardLevel {
  /**
   * The shard shape of this level (the array's chunk grid for the outermost one; empty for a
   * grid whose chunks differ, a rectilinear one).
   */
  shape: number[];
  /** The `sharding_indexed` configuration of this level, as metadata writes it. */
  configuration: JsonObject;
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
  /** The pipeline of every level, outermost first (the last one encodes the innermost chunks). */
  pipelines: CodecPipeline[];
}

function levelOf(pipeline: CodecPipeline): Level {
  return {
    before: pipeline.arrayToArray.map((stage) => stage.codec.toJson()),
    serializer: pipeline.arrayToBytes.codec.toJson(),
    after: pipeline.bytesToBytes.map((codec) => codec.toJson()),
  };
}

/**
 * Takes an array's codecs apart: each sharding level (nested sharding included) and the
 * innermost codecs. Works from the metadata (each level's pipeline built from its codec list),
 * so it needs nothing of the sharding codec but its configuration.
 */
export function storedLayoutOf(array: ZarrArray): StoredLayout {
  const shards: ShardLevel[] = [];
  let pipeline = array.access.runner.pipeline;
  const pipelines = [pipeline];
  let shape = [...(array.metadata.chunkGrid.chunkShape ?? [])];
  for (;;) {
    const serializer = pipeline.arrayToBytes;
    if (serializer.codec.name !== "sharding_indexed") break;
    const { before, after } = levelOf(pipeline);
    const { configuration } = serializer.codec.toJson();
    shards.push({ shape, configuration, before, after });
    shape = [...(configuration.chunk_shape as number[])];
    // The inner chunks: the shard's element type and fill value, the inner chunk shape.
    const innerSpec = { ...serializer.spec, shape };
    const inner = (configuration.codecs as CodecSpec[]).map(toNamedConfig);
    pipeline = CodecPipeline.create(inner, innerSpec, pipeline.zarrFormat);
    pipelines.push(pipeline);
  }
  return { shards, chunkShape: shape, ...levelOf(pipeline), pipelines };
}

/**
 * The chunking and codec options of a copy, as `createArray` takes them: the whole codec list
 * when shards are kept as they are, otherwise the codecs of each (inner) chunk taken apart, so
 * that options given on top replace one part (`compressors`, say) and keep the rest.
 */
export interface CopyLayout {
  /**
   * The chunk shape: the inner chunk shape when `shards` is set, otherwise the chunk grid
   * (the shard shape of a copy that keeps the source's sharding codecs as they are). Not set
   * when `chunkGrid` is.
   */
  chunks?: number[];
  /** The source's chunk grid as it is, when its chunks differ (rectilinear) and stay. */
  chunkGrid?: JsonObject;
  /** The shard shape, when the copy is sharded through `shards`. */
  shards?: number[];
  /** Where the shard index goes, when the copy is sharded through `shards`. */
  shardIndexLocation?: "start" | "end";
  /** The whole codec list, when the source's sharding codecs are kept as they are. */
  codecs?: NamedConfig[];
  /** The array-to-array codecs of each (inner) chunk. */
  filters?: NamedConfig[];
  /** The array-to-bytes codec of each (inner) chunk. */
  serializer?: NamedConfig;
  /** The bytes-to-bytes codecs of each (inner) chunk (empty for none). */
  compressors?: NamedConfig[];
}

/** What a copy changes about an array's storage. */
export interface LayoutChanges {
  /** The destination format. */
  format: 2 | 3;
  /** New bytes-to-bytes codecs for the innermost chunks (`[]` for none). */
  compressors?: NamedConfig[];
  /** A new (inner) chunk shape. */
  chunks?: number[];
}

function shardingEntry(level: ShardLevel, inner: NamedConfig[]): NamedConfig {
  const c = level.configuration;
  return entry("sharding_indexed", { ...c, codecs: inner.map(namedConfigToJson) });
}

/** `n` rounded up to a multiple of `unit`. */
const roundUp = (n: number, unit: number) => Math.max(1, Math.ceil(n / unit)) * unit;

/**
 * The storage of a copy of `source`:
 * - to v3 without new chunks: the same chunk grid and codecs, sharding (nested too, with its
 *   index codecs and location) included; numcodecs codecs with a v3 equivalent are written
 *   under their v3 names ({@link toV3Codec}). A v2 object array's object codec (`vlen-utf8`,
 *   `vlen-bytes`, `json2`, ...) is its serializer.
 * - to v2, which has no sharding: a sharded array is written with its innermost chunks as v2
 *   chunks (the unit readers fetch), encoded by its innermost codecs.
 * - `compressors` replace the bytes-to-bytes codecs of the innermost chunks (inside shards).
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
      `A copy of /${source.path} in Zarr v${changes.format}${changes.chunks ? " with new chunks" : ""}`,
    );
  const sameGrid = grid.chunkShape ? {} : { chunkGrid: grid.toJson() };
  const layout = storedLayoutOf(source);
  const native = (codecs: NamedConfig[]) =>
    changes.format === 3 ? codecs.map((c) => toV3Codec(c, itemSize)) : codecs;
  const innermost = serializerInV3(changes.format, {
    filters: native(layout.before),
    serializer: native([layout.serializer])[0],
    compressors: native(changes.compressors ?? layout.after),
  });
  const [outer] = layout.shards;
  if (outer === undefined) {
    if (grid.chunkShape === undefined) return { ...sameGrid, ...innermost };
    return { chunks: changes.chunks ?? layout.chunkShape, ...innermost };
  }
  if (keepsGrid) {
    // Rebuilt from the inside out, so every level keeps its own settings.
    let codecs = [...innermost.filters, innermost.serializer, ...innermost.compressors];
    for (const level of [...layout.shards].reverse())
      codecs = [...native(level.before), shardingEntry(level, codecs), ...native(level.after)];
    return grid.chunkShape ? { chunks: [...outer.shape], codecs } : { ...sameGrid, codecs };
  }
  const wholeShard = layout.shards.find((level) => level.before.length > 0);
  if (wholeShard) {
    throw new MetadataError(
      `its codecs ${wholeShard.before.map((c) => c.name).join(", ")} work on whole shards, so its shards cannot be taken apart; copy it to v3 without new chunks`,
    );
  }
  const chunks = changes.chunks ?? layout.chunkShape;
  if (changes.format === 2) return { chunks, ...innermost };
  return {
    chunks,
    shards: outer.shape.map((n, axis) => roundUp(n, chunks[axis])),
    shardIndexLocation: outer.configuration.index_location === "start" ? "start" : "end",
    ...innermost,
  };
}

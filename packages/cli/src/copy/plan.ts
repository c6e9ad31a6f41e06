import {
  type ArrayMetadata,
  type ArrayOptions,
  arrayMetadataDocuments,
  type BytesToBytesCodec,
  buildArrayMetadata,
  CodecConfigError,
  type CodecPipeline,
  type JsonObject,
  type JsonValue,
  parseJson,
  parseV2Node,
  parseV3Node,
  ShardingCodec,
  sameStoredLayout,
  ZarrArray,
} from "@z/zarr";
import { type CompressorChoice, copyLayout } from "../commands/copy-codecs.js";
import { CopyOptionError } from "./copy-option-error.js";

/** What a copy changes, as `zarr copy` takes it. */
export interface CopyChanges {
  /** The destination format (default: each node's own). */
  format?: 2 | 3;
  /** A new compressor for every array. */
  compressor?: CompressorChoice;
  /** A new (inner) chunk shape for every array. */
  chunks?: number[];
}

/** xarray's v2 convention for dimension names, which v3 holds in `dimension_names`. */
const XARRAY_DIMS = "_ARRAY_DIMENSIONS";

function dimensionsFor(
  source: ZarrArray,
  format: 2 | 3,
): { attributes: JsonObject; dimensionNames?: (string | null)[] } {
  const attributes = source.attrs;
  if (format === 2) {
    if (source.dimensionNames && !(XARRAY_DIMS in attributes))
      attributes[XARRAY_DIMS] = source.dimensionNames;
    return { attributes };
  }
  const names = source.dimensionNames ?? (attributes[XARRAY_DIMS] as (string | null)[] | undefined);
  if (source.zarrFormat === 2 && Array.isArray(names) && names.length === source.ndim) {
    delete attributes[XARRAY_DIMS];
    return { attributes, dimensionNames: names };
  }
  return { attributes, dimensionNames: source.dimensionNames };
}

/** How the copy names its chunk keys: the source's way when the format stays. */
function keyEncodingFor(source: ZarrArray, format: 2 | 3): Partial<ArrayOptions> {
  const meta = source.metadata;
  if (format !== meta.zarrFormat) return {};
  if (format === 2) return { dimensionSeparator: meta.v2?.dimensionSeparator ?? "." };
  const { name, separator } = meta.chunkKeyEncoding;
  return name === "default" || name === "v2"
    ? { chunkKeyEncoding: { name, separator: separator as "/" | "." } }
    : {};
}

/** The options given, as the command line spells them (for error messages). */
export function describeChanges(changes: CopyChanges): string {
  const parts: string[] = [];
  if (changes.format !== undefined) parts.push(`--format ${changes.format}`);
  if (changes.compressor !== undefined) parts.push(`--compressor ${changes.compressor}`);
  if (changes.chunks !== undefined) parts.push(`--chunks ${changes.chunks.join(",")}`);
  return parts.length > 0 ? parts.join(" ") : "no options";
}

/**
 * The fill value of a copy. A v2 `null` fill value stays null in v2; v3 needs one, and takes
 * the data type's default (what zarr-python 3 reads missing chunks of such arrays as).
 */
function fillValueFor(source: ZarrArray, format: 2 | 3): unknown {
  const meta = source.metadata;
  if (format === 2) return meta.fillValueJson === null ? null : meta.fillValue;
  if (meta.fillValue !== null && meta.fillValue !== undefined) return meta.fillValue;
  // The type's own v3 form of "no fill value" (v2 object arrays hold null: "" for strings).
  const t = meta.dataType;
  return t.parseFill(t.fillToJson(t.defaultFill as never, 3), 3);
}

/**
 * The metadata as readers will parse it from the documents written for it, so a copy that
 * would write metadata no reader can open is refused before anything is written.
 */
function readBack(metadata: ArrayMetadata, path: string): ArrayMetadata {
  const docs = new Map(arrayMetadataDocuments(metadata));
  const doc = (name: string) => {
    const bytes = docs.get(name);
    return bytes === undefined ? undefined : parseJson(bytes, `/${path}/${name}`);
  };
  const node =
    metadata.zarrFormat === 3
      ? parseV3Node(doc("zarr.json") as JsonValue, `/${path}/zarr.json`)
      : parseV2Node(doc(".zarray"), undefined, doc(".zattrs"), (name) => `/${path}/${name}`);
  return node.metadata as ArrayMetadata;
}

/** The bytes-to-bytes codecs of a pipeline, those inside its shards included. */
function bytesCodecs(pipeline: CodecPipeline): BytesToBytesCodec[] {
  const serializer = pipeline.arrayToBytes.codec;
  const inner = serializer instanceof ShardingCodec ? bytesCodecs(serializer.inner) : [];
  return [...pipeline.bytesToBytes, ...inner];
}

/**
 * Encodes a few bytes with every compressor of the copy: some codecs can be read but not
 * written (bz2), and a copy that re-encodes chunks must know before it writes anything.
 */
async function checkEncoders(copy: ZarrArray): Promise<void> {
  for (const codec of bytesCodecs(copy.io.pipeline)) await codec.encode(new Uint8Array(16));
}

/**
 * The creation options of the copy of one array, checked the way `createArray` will check
 * them (metadata, data type in the format, every codec known), without any I/O. When the copy
 * re-encodes chunks (its layout differs from the source's), its compressors must also be able
 * to encode.
 * @throws CopyOptionError naming the option and the array
 */
export async function planArray(source: ZarrArray, changes: CopyChanges): Promise<ArrayOptions> {
  const { chunks } = changes;
  const format = changes.format ?? source.zarrFormat;
  if (chunks && chunks.length !== source.ndim) {
    throw new CopyOptionError(
      `--chunks ${chunks.join(",")}`,
      source.path,
      `it has ${chunks.length} extent${chunks.length === 1 ? "" : "s"}; the array has ${source.ndim} dimension${source.ndim === 1 ? "" : "s"}`,
    );
  }
  if (chunks?.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new CopyOptionError(
      `--chunks ${chunks.join(",")}`,
      source.path,
      "chunk extents must be positive integers",
    );
  }
  const meta = source.metadata;
  try {
    const options: ArrayOptions = {
      shape: meta.shape,
      dtype: meta.dataType,
      ...copyLayout(source, { format, compressor: changes.compressor, chunks }),
      fillValue: fillValueFor(source, format),
      zarrFormat: format,
      ...keyEncodingFor(source, format),
      ...dimensionsFor(source, format),
    };
    // Building the array object builds its codec pipelines: unknown or misconfigured codecs
    // fail here. The object does no I/O.
    const metadata = readBack(buildArrayMetadata(options), source.path);
    const copy = new ZarrArray(source.store, source.path, metadata);
    if (!sameStoredLayout(meta, metadata)) await checkEncoders(copy);
    return options;
  } catch (error) {
    let reason = error instanceof Error ? error.message : String(error);
    if (error instanceof CodecConfigError && changes.compressor === undefined)
      reason += " (choose another compressor with --compressor)";
    throw new CopyOptionError(describeChanges(changes), source.path, reason, { cause: error });
  }
}

import {
  DEFAULT_MAX_DECODED_BYTES,
  DecodeError,
  decodeLz4Frame,
  encodeLz4Frame,
  ZstdCodec,
} from "@z/codecs";
import { locateError } from "@z/errors";
import type { ArrowModule } from "../load-arrow.js";
import type { Table } from "./flatbuffer.js";

/** The codecs of Arrow IPC body compression, as this package spells them in configuration. */
export type BodyCompression = "lz4_frame" | "zstd";

/** The names, by Message.fbs's CompressionType value. */
const CODECS: readonly BodyCompression[] = ["lz4_frame", "zstd"];

/** A compressed buffer of a record batch: where its bytes are and how big they decode. */
export interface CompressedBuffer {
  codec: BodyCompression;
  /** The compressed bytes (after the 8-byte length prefix). */
  data: Uint8Array;
  /**
   * The decoded length the prefix states; undefined when it states the compressed length
   * instead (apache-arrow 21's writer does: its reader ignores the prefix), so the size is
   * known only after decoding, within what is left of the stream's limit.
   */
  size: number | undefined;
}

/** Decoded buffers of compressed record batches, by message ordinal; each list in buffer order. */
export type DecompressedBodies = Map<number, Uint8Array[]>;

/**
 * The buffers of a compressed record batch (a RecordBatch table whose `compression` member is
 * set), checked: each is empty, or an int64 decoded length then the compressed bytes, or -1 then
 * the bytes as they are. Every length is checked against the body and the running `budget`
 * (decoded bytes the whole stream may produce) before anything is decoded.
 * @returns undefined when the batch is not compressed; entries are Uint8Array for buffers that
 *   need no decoding
 */
export function compressedBuffers(
  batch: Table,
  body: Uint8Array,
  budget: { left: number },
  where: string,
): (Uint8Array | CompressedBuffer)[] | undefined {
  const compression = batch.table(3);
  if (!compression) return undefined;
  const codecValue = compression.i8(0);
  const codec = CODECS[codecValue];
  if (codec === undefined)
    throw new DecodeError(`${where}: Arrow body compression codec ${codecValue} is not known`);
  if (compression.i8(1) !== 0) {
    throw new DecodeError(
      `${where}: Arrow body compression method ${compression.i8(1)} is not known (BUFFER, 0, is)`,
    );
  }
  const fb = batch.fb;
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  return batch.structs(2, 16).map((pos, k) => {
    const offset = fb.i64(pos);
    const length = fb.i64(pos + 8);
    if (offset < 0n || length < 0n || offset + length > BigInt(body.length)) {
      throw new DecodeError(
        `${where}: an Arrow buffer at offset ${offset} of ${length} bytes lies outside the ${body.length}-byte message body`,
      );
    }
    const start = Number(offset);
    const end = start + Number(length);
    if (start === end) return new Uint8Array(0);
    if (end - start < 8) {
      throw new DecodeError(
        `${where}: compressed Arrow buffer ${k} has ${end - start} bytes, too few for its length prefix`,
      );
    }
    const declared = view.getBigInt64(start, true);
    const data = body.subarray(start + 8, end);
    if (declared === -1n) return data; // stored as is: compressing did not pay
    if (declared === BigInt(data.length)) return { codec, data, size: undefined };
    if (declared < 0n || declared > BigInt(budget.left)) {
      throw new DecodeError(
        `${where}: compressed Arrow buffer ${k} claims to decode to ${declared} bytes, more than the ${budget.left} left of this stream's limit`,
      );
    }
    budget.left -= Number(declared);
    return { codec, data, size: Number(declared) };
  });
}

/**
 * Decodes one compressed buffer to exactly its stated size (a DecodeError if it is not), or,
 * when the size is not stated, to at most what is left of `budget`, which it then takes.
 */
export async function decompressBuffer(
  buffer: CompressedBuffer,
  budget: { left: number },
  where: string,
): Promise<Uint8Array> {
  if (buffer.size === 0 && buffer.data.length === 0) return new Uint8Array(0);
  const label = `${where}: ${buffer.codec === "zstd" ? "ZSTD" : "LZ4_FRAME"} Arrow buffer`;
  const options =
    buffer.size === undefined
      ? { maxSize: budget.left }
      : { expectedSize: buffer.size, maxSize: buffer.size };
  try {
    const out =
      buffer.codec === "lz4_frame"
        ? decodeLz4Frame(buffer.data, { ...options, where: label })
        : await new ZstdCodec().decode(buffer.data, options);
    if (buffer.size === undefined) budget.left -= out.length;
    else if (out.length !== buffer.size) {
      throw new DecodeError(
        `${label}: decodes to ${out.length} bytes; its length prefix states ${buffer.size}`,
      );
    }
    return out;
  } catch (error) {
    throw error instanceof DecodeError ? locateError(error, label) : error;
  }
}

/** The default bound on the bytes all compressed buffers of one stream may decode to. */
export const DEFAULT_MAX_DECOMPRESSED_BYTES = DEFAULT_MAX_DECODED_BYTES;

async function compress(codec: BodyCompression, bytes: Uint8Array): Promise<Uint8Array> {
  return codec === "lz4_frame" ? encodeLz4Frame(bytes) : new ZstdCodec(0).encode(bytes);
}

/**
 * One buffer as a compressed IPC body stores it: empty stays empty; otherwise an int64 decoded
 * length then the LZ4 or zstd frame, or -1 then the bytes as they are when compressing does
 * not shrink them.
 */
export async function compressBody(codec: BodyCompression, bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes.length === 0) return bytes;
  const frame = await compress(codec, bytes);
  const shrinks = frame.length < bytes.length;
  const out = new Uint8Array(8 + (shrinks ? frame.length : bytes.length));
  new DataView(out.buffer).setBigInt64(0, shrinks ? BigInt(bytes.length) : -1n, true);
  out.set(shrinks ? frame : bytes, 8);
  return out;
}

/** A compressor apache-arrow's writer calls synchronously, driven by {@link withBodyCompression}. */
interface ReplayCodec {
  encode(data: Uint8Array): Uint8Array;
}

/** Our hooks, so that a write never mistakes another write's hook for the user's codec. */
const hooks = new WeakSet<object>();
/** The codec the registry held before our first write, by compression type (restored after). */
const userCodecs = new Map<number, unknown>();

// The magic numbers apache-arrow checks when a codec is registered (LZ4 frame: magic then a
// version-1 flag byte; zstd: magic and two more bytes).
const PROBE_PREFIX: Record<BodyCompression, number[]> = {
  lz4_frame: [0x04, 0x22, 0x4d, 0x18, 0x40, 0x40, 0],
  zstd: [0x28, 0xb5, 0x2f, 0xfd, 0, 0],
};

/**
 * Writes with apache-arrow's IPC writer and compressed bodies (whose length prefixes the caller
 * must then set to the decoded sizes: apache-arrow 21 writes the compressed ones). apache-arrow compresses through
 * a global registry of synchronous codecs, but liblz4 and libzstd load asynchronously here. So
 * the writer runs twice: first with a codec that records each buffer and returns something
 * longer (so apache-arrow keeps the buffer as is), then, once every buffer is compressed,
 * with one that hands back the compressed buffers in the same order. Both runs are synchronous,
 * so nothing else can use the registry in between; the previous registry entry is restored.
 * @param write runs apache-arrow's writer with `compressionType` set
 */
export async function withBodyCompression(
  A: ArrowModule,
  codec: BodyCompression,
  write: (compressionType: number) => Uint8Array,
): Promise<{ bytes: Uint8Array; sizes: number[] }> {
  const type = codec === "lz4_frame" ? A.CompressionType.LZ4_FRAME : A.CompressionType.ZSTD;
  const registry = A.compressionRegistry;
  const current = registry.get(type);
  // Concurrent writes interleave at the await below: only a codec that is not ours is the user's.
  if (!current || !hooks.has(current)) userCodecs.set(type, current ?? undefined);
  const prefix = PROBE_PREFIX[codec];
  const longer = (data: Uint8Array) => {
    const out = new Uint8Array(prefix.length + data.length);
    out.set(prefix);
    out.set(data, prefix.length);
    return out;
  };
  const recorded: Uint8Array[] = [];
  let run = (data: Uint8Array): Uint8Array => longer(data);
  const hook: ReplayCodec = { encode: (data) => run(data) };
  hooks.add(hook);
  const install = () => registry.set(type, hook);
  try {
    install();
    run = (data) => {
      recorded.push(data.slice());
      return longer(data);
    };
    write(type);
    const compressed = await Promise.all(recorded.map((data) => compress(codec, data)));
    let next = 0;
    run = longer;
    install(); // the probe apache-arrow runs on registration uses `longer`
    run = (data) => compressed[next++] ?? longer(data);
    const bytes = write(type);
    if (next !== compressed.length) {
      throw new Error(
        `apache-arrow compressed ${next} buffers on the second run and ${compressed.length} on the first`,
      );
    }
    return { bytes, sizes: recorded.map((data) => data.length) };
  } finally {
    // Restore the user's codec; later writes install their hook again before each run.
    const user = userCodecs.get(type);
    (registry as unknown as { registry: Record<number, unknown> }).registry[type] = user;
  }
}

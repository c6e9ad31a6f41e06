// Takes an Arrow IPC stream apart message by message with Arrow's own generated FlatBuffers
// code (the `fb` modules apache-arrow ships), independently of our reader: the tests then
// decode each field's buffers by hand from the columnar format spec. Compressed buffers are
// decoded by the lz4 and zstd command line tools.
import { execFileSync } from "node:child_process";
import {
  DictionaryBatch,
  Message,
  MessageHeader,
  RecordBatch,
} from "apache-arrow/fb/Message_generated";
import { type Field, Int, Schema, Type } from "apache-arrow/fb/Schema_generated";
import { ByteBuffer } from "flatbuffers";

/** A schema field as the Schema message states it. */
export interface InspectedField {
  name: string;
  nullable: boolean;
  type: Type;
  /** For Int types: the bit width and signedness. */
  int?: { bitWidth: number; isSigned: boolean };
  dictionaryId?: number;
  children: InspectedField[];
}

/** A record batch (or a dictionary batch's data): nodes, decoded buffers, variadic counts. */
export interface InspectedBatch {
  length: number;
  nodes: { length: number; nullCount: number }[];
  buffers: Uint8Array[];
  variadic: number[];
  /** The body compression codec (0 LZ4_FRAME, 1 ZSTD), when compressed. */
  compression?: number;
}

/** A whole stream: its schema's fields, dictionary batches and record batches, in order. */
export interface InspectedStream {
  fields: InspectedField[];
  dictionaries: { id: number; batch: InspectedBatch }[];
  batches: InspectedBatch[];
}

function fieldOf(f: Field): InspectedField {
  const out: InspectedField = {
    name: f.name() ?? "",
    nullable: f.nullable(),
    type: f.typeType(),
    children: Array.from({ length: f.childrenLength() }, (_, i) => fieldOf(f.children(i)!)),
  };
  if (out.type === Type.Int) {
    const t = f.type(new Int()) as Int;
    out.int = { bitWidth: t.bitWidth(), isSigned: t.isSigned() };
  }
  const dictionary = f.dictionary();
  if (dictionary) out.dictionaryId = Number(dictionary.id());
  return out;
}

function decompress(codec: number, data: Uint8Array): Uint8Array {
  const tool = codec === 0 ? "lz4" : "zstd";
  return new Uint8Array(execFileSync(tool, ["-d", "-c"], { input: data }));
}

function batchOf(batch: RecordBatch, body: Uint8Array): InspectedBatch {
  const compression = batch.compression();
  const codec = compression ? compression.codec() : undefined;
  const buffers = Array.from({ length: batch.buffersLength() }, (_, i) => {
    const b = batch.buffers(i)!;
    const offset = Number(b.offset());
    const length = Number(b.length());
    if (offset % 8 !== 0) throw new Error(`buffer ${i} starts at ${offset}, not 8-byte aligned`);
    if (offset + length > body.length) throw new Error(`buffer ${i} lies outside the body`);
    const raw = body.subarray(offset, offset + length);
    if (codec === undefined || length === 0) return raw;
    const stated = new DataView(raw.buffer, raw.byteOffset, 8).getBigInt64(0, true);
    if (stated === -1n) return raw.subarray(8);
    const out = decompress(codec, raw.subarray(8));
    if (BigInt(out.length) !== stated)
      throw new Error(`buffer ${i} decodes to ${out.length} bytes; its prefix states ${stated}`);
    return out;
  });
  return {
    length: Number(batch.length()),
    nodes: Array.from({ length: batch.nodesLength() }, (_, i) => ({
      length: Number(batch.nodes(i)!.length()),
      nullCount: Number(batch.nodes(i)!.nullCount()),
    })),
    buffers,
    variadic: Array.from({ length: batch.variadicBufferCountsLength() }, (_, i) =>
      Number(batch.variadicBufferCounts(i)),
    ),
    ...(codec === undefined ? {} : { compression: codec }),
  };
}

/** Splits a stream into its messages and decodes each with Arrow's generated code. */
export function inspectStream(bytes: Uint8Array): InspectedStream {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: InspectedStream = { fields: [], dictionaries: [], batches: [] };
  let at = 0;
  for (;;) {
    if (view.getUint32(at, true) !== 0xffffffff) throw new Error(`no continuation token at ${at}`);
    const length = view.getInt32(at + 4, true);
    if (length === 0) {
      if (at + 8 !== bytes.length) throw new Error("bytes after the end-of-stream marker");
      return out;
    }
    if ((at + 8 + length) % 8 !== 0) throw new Error(`the body at ${at + 8 + length} is unaligned`);
    const message = Message.getRootAsMessage(new ByteBuffer(bytes.slice(at + 8, at + 8 + length)));
    const bodyStart = at + 8 + length;
    const body = bytes.subarray(bodyStart, bodyStart + Number(message.bodyLength()));
    switch (message.headerType()) {
      case MessageHeader.Schema: {
        const schema = message.header(new Schema()) as Schema;
        for (let i = 0; i < schema.fieldsLength(); i++) out.fields.push(fieldOf(schema.fields(i)!));
        break;
      }
      case MessageHeader.DictionaryBatch: {
        const d = message.header(new DictionaryBatch()) as DictionaryBatch;
        out.dictionaries.push({ id: Number(d.id()), batch: batchOf(d.data()!, body) });
        break;
      }
      case MessageHeader.RecordBatch:
        out.batches.push(batchOf(message.header(new RecordBatch()) as RecordBatch, body));
        break;
      default:
        throw new Error(`unexpected message type ${message.headerType()}`);
    }
    at = bodyStart + body.length;
  }
}

/** Little-endian integers of a buffer: int16, int32 or int64 (as numbers). */
export function intsOf(buffer: Uint8Array, bitWidth: number, count: number): number[] {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const width = bitWidth / 8;
  if (buffer.length < count * width) throw new Error(`${buffer.length} bytes for ${count} ints`);
  return Array.from({ length: count }, (_, i) =>
    bitWidth === 16
      ? view.getInt16(i * 2, true)
      : bitWidth === 32
        ? view.getInt32(i * 4, true)
        : Number(view.getBigInt64(i * 8, true)),
  );
}

/** Whether element `i` is valid in a validity bitmap (an empty bitmap: all are). */
export function isValid(bitmap: Uint8Array, i: number): boolean {
  return bitmap.length === 0 || (bitmap[i >> 3] & (1 << (i & 7))) !== 0;
}

/** The elements of a utf8 array from its validity, offsets and data buffers. */
export function utf8Of(buffers: Uint8Array[], n: number): (string | null)[] {
  const [validity, offsetBytes, data] = buffers;
  const offsets = intsOf(offsetBytes, 32, n + 1);
  return Array.from({ length: n }, (_, i) =>
    isValid(validity, i)
      ? new TextDecoder().decode(data.subarray(offsets[i], offsets[i + 1]))
      : null,
  );
}

// Builds Arrow IPC streams message by message with Arrow's own generated FlatBuffers code (the
// `fb` modules apache-arrow ships), for layouts apache-arrow cannot write (run-end encoding, list views) and
// for hostile variants of those it can. The bodies are laid out by hand in the tests.
import { BinaryView } from "apache-arrow/fb/binary-view";
import { LargeListView } from "apache-arrow/fb/large-list-view";
import { ListView } from "apache-arrow/fb/list-view";
import {
  BodyCompression,
  DictionaryBatch,
  Buffer as FbBuffer,
  FieldNode,
  Message,
  MessageHeader,
  MetadataVersion,
  RecordBatch,
} from "apache-arrow/fb/Message_generated";
import {
  DictionaryEncoding,
  Endianness,
  Field,
  Int,
  RunEndEncoded,
  Schema,
  Type,
  Utf8,
} from "apache-arrow/fb/Schema_generated";
import { Utf8View } from "apache-arrow/fb/utf8-view";
import { Builder } from "flatbuffers";

/** A field of the schema to build. */
export interface FieldSpec {
  name: string;
  nullable: boolean;
  type:
    | "int16"
    | "int32"
    | "int64"
    | "utf8"
    | "utf8view"
    | "binaryview"
    | "runendencoded"
    | "listview"
    | "largelistview";
  children?: FieldSpec[];
  /** A dictionary id: the field is dictionary-encoded (int32 indices), `type` its values. */
  dictionaryId?: number;
}

function buildField(b: Builder, spec: FieldSpec): number {
  const name = b.createString(spec.name);
  const children = Field.createChildrenVector(
    b as never,
    (spec.children ?? []).map((c) => buildField(b, c)),
  );
  let typeType: Type;
  let type: number;
  switch (spec.type) {
    case "int16":
    case "int32":
    case "int64":
      typeType = Type.Int;
      type = Int.createInt(b as never, Number(spec.type.slice(3)), true);
      break;
    case "utf8":
      typeType = Type.Utf8;
      type = Utf8.createUtf8(b as never);
      break;
    case "utf8view":
      typeType = Type.Utf8View;
      type = Utf8View.createUtf8View(b as never);
      break;
    case "binaryview":
      typeType = Type.BinaryView;
      type = BinaryView.createBinaryView(b as never);
      break;
    case "listview":
      typeType = Type.ListView;
      type = ListView.createListView(b as never);
      break;
    case "largelistview":
      typeType = Type.LargeListView;
      type = LargeListView.createLargeListView(b as never);
      break;
    case "runendencoded":
      typeType = Type.RunEndEncoded;
      type = RunEndEncoded.createRunEndEncoded(b as never);
      break;
  }
  let dictionary = 0;
  if (spec.dictionaryId !== undefined) {
    const indexType = Int.createInt(b as never, 32, true);
    DictionaryEncoding.startDictionaryEncoding(b as never);
    DictionaryEncoding.addId(b as never, BigInt(spec.dictionaryId));
    DictionaryEncoding.addIndexType(b as never, indexType);
    dictionary = DictionaryEncoding.endDictionaryEncoding(b as never);
  }
  Field.startField(b as never);
  Field.addName(b as never, name);
  Field.addNullable(b as never, spec.nullable);
  Field.addTypeType(b as never, typeType);
  Field.addType(b as never, type);
  if (dictionary) Field.addDictionary(b as never, dictionary);
  Field.addChildren(b as never, children);
  return Field.endField(b as never);
}

function frame(b: Builder, header: number, headerType: MessageHeader, bodyLength: number) {
  const message = Message.createMessage(
    b as never,
    MetadataVersion.V5,
    headerType,
    header,
    BigInt(bodyLength),
    0,
  );
  Message.finishMessageBuffer(b as never, message);
  const meta = b.asUint8Array();
  const padded = (meta.length + 7) & ~7;
  const out = new Uint8Array(8 + padded);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xffffffff, true);
  view.setUint32(4, padded, true);
  out.set(meta, 8);
  return out;
}

/** A schema message of the fields. */
export function schemaMessage(fields: FieldSpec[]): Uint8Array {
  const b = new Builder(256);
  const offsets = fields.map((f) => buildField(b, f));
  const vector = Schema.createFieldsVector(b as never, offsets);
  const schema = Schema.createSchema(b as never, Endianness.Little, vector, 0, 0);
  return frame(b, schema, MessageHeader.Schema, 0);
}

/** The parts of a record batch to build. */
export interface BatchSpec {
  length: number;
  /** [length, null count] per array, depth first. */
  nodes: [number, number][];
  /** The buffers, in IPC order: each is laid out in the body, 8-byte aligned. */
  buffers: Uint8Array[];
  variadicBufferCounts?: number[];
  /** Body compression codec (0 LZ4_FRAME, 1 ZSTD): the buffers are then given compressed. */
  compression?: number;
}

function batchTable(b: Builder, spec: BatchSpec): { table: number; body: Uint8Array } {
  const regions: [number, number][] = [];
  let at = 0;
  for (const buffer of spec.buffers) {
    regions.push([at, buffer.length]);
    at += (buffer.length + 7) & ~7;
  }
  const body = new Uint8Array(at);
  spec.buffers.forEach((buffer, i) => {
    body.set(buffer, regions[i][0]);
  });
  const variadic =
    spec.variadicBufferCounts &&
    RecordBatch.createVariadicBufferCountsVector(
      b as never,
      spec.variadicBufferCounts.map((n) => BigInt(n)),
    );
  const compression =
    spec.compression === undefined
      ? 0
      : BodyCompression.createBodyCompression(b as never, spec.compression, 0);
  // Vectors of structs are written back to front.
  RecordBatch.startNodesVector(b as never, spec.nodes.length);
  for (const [length, nulls] of [...spec.nodes].reverse())
    FieldNode.createFieldNode(b as never, BigInt(length), BigInt(nulls));
  const nodes = b.endVector();
  RecordBatch.startBuffersVector(b as never, regions.length);
  for (const [offset, length] of [...regions].reverse())
    FbBuffer.createBuffer(b as never, BigInt(offset), BigInt(length));
  const buffers = b.endVector();
  RecordBatch.startRecordBatch(b as never);
  RecordBatch.addLength(b as never, BigInt(spec.length));
  RecordBatch.addNodes(b as never, nodes);
  RecordBatch.addBuffers(b as never, buffers);
  if (compression) RecordBatch.addCompression(b as never, compression);
  if (variadic) RecordBatch.addVariadicBufferCounts(b as never, variadic);
  return { table: RecordBatch.endRecordBatch(b as never), body };
}

/** A record batch message and its body. */
export function recordBatchMessage(spec: BatchSpec): Uint8Array {
  const b = new Builder(256);
  const { table, body } = batchTable(b, spec);
  return concat(frame(b, table, MessageHeader.RecordBatch, body.length), body);
}

/** A dictionary batch message (a delta when `isDelta`) and its body. */
export function dictionaryBatchMessage(id: number, spec: BatchSpec, isDelta: boolean): Uint8Array {
  const b = new Builder(256);
  const { table, body } = batchTable(b, spec);
  DictionaryBatch.startDictionaryBatch(b as never);
  DictionaryBatch.addId(b as never, BigInt(id));
  DictionaryBatch.addData(b as never, table);
  DictionaryBatch.addIsDelta(b as never, isDelta);
  const header = DictionaryBatch.endDictionaryBatch(b as never);
  return concat(frame(b, header, MessageHeader.DictionaryBatch, body.length), body);
}

/** The end-of-stream marker. */
export const END_OF_STREAM = new Uint8Array([255, 255, 255, 255, 0, 0, 0, 0]);

/** Bytes one after another. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Little-endian integers as bytes. */
export function int32s(...values: number[]): Uint8Array {
  return new Uint8Array(Int32Array.from(values).buffer);
}

/** UTF-8 strings laid out as an Arrow utf8 array: [offsets, data]. */
export function utf8Buffers(values: string[]): [Uint8Array, Uint8Array] {
  const data = new TextEncoder().encode(values.join(""));
  const offsets = [0];
  for (const v of values)
    offsets.push(offsets[offsets.length - 1] + new TextEncoder().encode(v).length);
  return [int32s(...offsets), data];
}

/** One 16-byte view: inline (up to 12 bytes) or a prefix, buffer index and offset. */
export function viewOf(bytes: Uint8Array, buffer = 0, offset = 0): Uint8Array {
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setInt32(0, bytes.length, true);
  if (bytes.length <= 12) out.set(bytes, 4);
  else {
    out.set(bytes.subarray(0, 4), 4);
    view.setInt32(8, buffer, true);
    view.setInt32(12, offset, true);
  }
  return out;
}

import {
  DictionaryBatch,
  BodyCompression as FbBodyCompression,
  Buffer as FbBuffer,
  FieldNode,
  Message,
  MessageHeader,
  MetadataVersion,
  RecordBatch,
} from "apache-arrow/fb/Message_generated";
import { Endianness, Schema } from "apache-arrow/fb/Schema_generated";
import { Builder } from "flatbuffers";
import { buildColumn } from "../column/build.js";
import { type ColumnNode, nodeChildren } from "../column/node.js";
import { type ArrowField, dictionaryValueField } from "../field/model.js";
import { type BodyCompression, compressBody } from "./body-compression.js";
import { encodeField } from "./encode-schema.js";

/** The end-of-stream marker: a continuation token and a zero metadata length. */
const END_OF_STREAM = new Uint8Array([255, 255, 255, 255, 0, 0, 0, 0]);

const pad8 = (n: number) => (n + 7) & ~7;

/** Frames a finished Message table: continuation token, metadata length (padded to 8), metadata. */
function frame(b: Builder, header: number, headerType: MessageHeader, bodyLength: number) {
  const message = Message.createMessage(
    b,
    MetadataVersion.V5,
    headerType,
    header,
    BigInt(bodyLength),
    0,
  );
  Message.finishMessageBuffer(b, message);
  const meta = b.asUint8Array();
  const padded = pad8(meta.length);
  const out = new Uint8Array(8 + padded);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xffffffff, true);
  view.setInt32(4, padded, true);
  out.set(meta, 8);
  return out;
}

/** A batch's arrays in IPC order: field nodes and buffers depth first, variadic buffer counts. */
interface FlatBatch {
  nodes: [number, number][];
  buffers: Uint8Array[];
  variadic: number[];
}

function flatten(field: ArrowField, node: ColumnNode, out: FlatBatch): void {
  out.nodes.push([node.length, node.nullCount]);
  out.buffers.push(...node.buffers);
  const t = field.type.name;
  if (!field.dictionary && (t === "utf8view" || t === "binaryview"))
    out.variadic.push(node.buffers.length - 2);
  const children = nodeChildren(field);
  children.forEach((child, i) => {
    flatten(child, node.children[i], out);
  });
}

/**
 * Builds a RecordBatch table into `b` and lays out its body: each buffer 8-byte aligned, or
 * compressed on its own (an int64 decoded length then the frame; -1 then the bytes when
 * compressing does not shrink them) when `compression` is set.
 */
async function batchTable(
  b: Builder,
  length: number,
  batch: FlatBatch,
  compression: BodyCompression | undefined,
): Promise<{ table: number; body: Uint8Array }> {
  const stored = compression
    ? await Promise.all(batch.buffers.map((buffer) => compressBody(compression, buffer)))
    : batch.buffers;
  const regions: [number, number][] = [];
  let at = 0;
  for (const buffer of stored) {
    regions.push([at, buffer.length]);
    at += pad8(buffer.length);
  }
  const body = new Uint8Array(at);
  stored.forEach((buffer, i) => {
    body.set(buffer, regions[i][0]);
  });
  const variadic = batch.variadic.length
    ? RecordBatch.createVariadicBufferCountsVector(b, batch.variadic.map(BigInt))
    : 0;
  const codec = compression
    ? FbBodyCompression.createBodyCompression(b, compression === "lz4_frame" ? 0 : 1, 0)
    : 0;
  // Vectors of structs are built back to front.
  RecordBatch.startNodesVector(b, batch.nodes.length);
  for (let i = batch.nodes.length - 1; i >= 0; i--)
    FieldNode.createFieldNode(b, BigInt(batch.nodes[i][0]), BigInt(batch.nodes[i][1]));
  const nodes = b.endVector();
  RecordBatch.startBuffersVector(b, regions.length);
  for (let i = regions.length - 1; i >= 0; i--)
    FbBuffer.createBuffer(b, BigInt(regions[i][0]), BigInt(regions[i][1]));
  const buffers = b.endVector();
  RecordBatch.startRecordBatch(b);
  RecordBatch.addLength(b, BigInt(length));
  RecordBatch.addNodes(b, nodes);
  RecordBatch.addBuffers(b, buffers);
  if (codec) RecordBatch.addCompression(b, codec);
  if (variadic) RecordBatch.addVariadicBufferCounts(b, variadic);
  return { table: RecordBatch.endRecordBatch(b), body };
}

function flatBatch(field: ArrowField, node: ColumnNode): FlatBatch {
  const batch: FlatBatch = { nodes: [], buffers: [], variadic: [] };
  flatten(field, node, batch);
  return batch;
}

/**
 * The dictionary batches a column needs, inner dictionaries (those inside a dictionary's
 * values) before the ones that use them, as readers resolve them in stream order.
 */
async function dictionaryMessages(
  field: ArrowField,
  node: ColumnNode,
  compression: BodyCompression | undefined,
  out: Uint8Array[],
): Promise<void> {
  if (field.dictionary && node.dictionary) {
    const valueField = { ...dictionaryValueField(field), nullable: false };
    await dictionaryMessages(valueField, node.dictionary, compression, out);
    const b = new Builder(256);
    const { table, body } = await batchTable(
      b,
      node.dictionary.length,
      flatBatch(valueField, node.dictionary),
      compression,
    );
    DictionaryBatch.startDictionaryBatch(b);
    DictionaryBatch.addId(b, BigInt(field.dictionary.id));
    DictionaryBatch.addData(b, table);
    const header = DictionaryBatch.endDictionaryBatch(b);
    out.push(frame(b, header, MessageHeader.DictionaryBatch, body.length), body);
    return;
  }
  const children = nodeChildren(field);
  for (let i = 0; i < children.length; i++)
    await dictionaryMessages(children[i], node.children[i], compression, out);
}

/**
 * Writes elements as an Arrow IPC stream without apache-arrow, for fields apache-arrow has no
 * type for (run-end encoded, list views): a Schema message with the one field, the dictionary
 * batches of its dictionary-encoded fields, one record batch, the end-of-stream marker.
 * Messages are built with Arrow's generated FlatBuffers code (metadata version V5,
 * little-endian), bodies laid out as the columnar format says.
 * @param compression compress every buffer of the batches (Arrow IPC body compression)
 * @throws ArrowEncodeError when a column does not fit its offsets or run-end type
 */
export async function encodeIpcStream(
  field: ArrowField,
  elements: ArrayLike<unknown>,
  compression?: BodyCompression,
): Promise<Uint8Array> {
  const column = buildColumn(field, elements);
  const parts: Uint8Array[] = [];
  const sb = new Builder(256);
  const fields = Schema.createFieldsVector(sb, [encodeField(sb, field)]);
  const schema = Schema.createSchema(sb, Endianness.Little, fields, 0, 0);
  parts.push(frame(sb, schema, MessageHeader.Schema, 0));
  await dictionaryMessages(field, column, compression, parts);
  const b = new Builder(256);
  const { table, body } = await batchTable(
    b,
    elements.length,
    flatBatch(field, column),
    compression,
  );
  parts.push(frame(b, table, MessageHeader.RecordBatch, body.length), body, END_OF_STREAM);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

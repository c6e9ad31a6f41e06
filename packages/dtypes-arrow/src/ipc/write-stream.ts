import type { Vector } from "apache-arrow";
import { buildColumn } from "../column/build.js";
import { toArrowData } from "../column/to-arrow-data.js";
import type { ArrowField } from "../field/model.js";
import { toArrowField } from "../field/to-arrow.js";
import { type ArrowModule, importArrow } from "../load-arrow.js";
import { type BodyCompression, withBodyCompression } from "./body-compression.js";
import type { Table } from "./flatbuffer.js";
import { type Message, messages } from "./read-stream.js";

/** The types apache-arrow 21 has no class for, so `encodeIpcStream` writes their streams. */
const TYPES_APACHE_ARROW_LACKS = new Set(["runendencoded", "listview", "largelistview"]);

/** Whether the field, or one of its descendants, has a type apache-arrow cannot write. */
export function needsOwnWriter(field: ArrowField): boolean {
  return TYPES_APACHE_ARROW_LACKS.has(field.type.name) || field.children.some(needsOwnWriter);
}

/** An apache-arrow vector of elements (in the form `coerceElement` returns) of a field. */
export function elementsToVector(
  A: ArrowModule,
  field: ArrowField,
  elements: ArrayLike<unknown>,
): Vector {
  const arrowField = toArrowField(A, field);
  return A.makeVector(toArrowData(A, arrowField.type, field, buildColumn(field, elements)));
}

/**
 * Writes elements as an Arrow IPC stream: a schema with one field, the dictionary batches of
 * dictionary-encoded fields, one record batch, the end-of-stream marker. apache-arrow writes
 * the stream, so any Arrow implementation reads it; fields with a type apache-arrow lacks
 * (run-end encoded, list views, anywhere in the field) are written by `encodeIpcStream`.
 * @param compression compress the batches' buffers (Arrow IPC body compression)
 */
export async function writeIpcStream(
  field: ArrowField,
  elements: ArrayLike<unknown>,
  compression?: BodyCompression,
): Promise<Uint8Array> {
  if (needsOwnWriter(field)) {
    // Loaded on first use, as apache-arrow is: readers of chunks do not need it.
    const { encodeIpcStream } = await import("./encode-stream.js");
    return encodeIpcStream(field, elements, compression);
  }
  const A = await importArrow();
  const arrowField = toArrowField(A, field);
  const column = toArrowData(A, arrowField.type, field, buildColumn(field, elements));
  const schema = new A.Schema([arrowField]);
  const rows = A.makeData({
    type: new A.Struct(schema.fields),
    length: elements.length,
    nullCount: 0,
    children: [column],
  });
  const table = new A.Table([new A.RecordBatch(schema, rows)]);
  if (!compression) return A.tableToIPC(table, "stream");
  const { bytes, sizes } = await withBodyCompression(A, compression, (compressionType) =>
    A.RecordBatchStreamWriter.writeAll(table, { compressionType } as never).toUint8Array(true),
  );
  setDecodedLengths(bytes, sizes);
  return bytes;
}

/**
 * Sets the length prefix of every compressed buffer to its decoded length, as the IPC format
 * says (apache-arrow 21 writes the compressed length there; other readers need the decoded
 * one). `sizes` holds the decoded length of every non-empty buffer in the order apache-arrow
 * compressed them: a record batch's buffers, then those of the dictionary batches written just
 * before it.
 */
function setDecodedLengths(bytes: Uint8Array, sizes: number[]): void {
  let next = 0;
  const patch = (message: Message, batch: Table | undefined) => {
    if (!batch?.table(3)) return;
    const { body } = message;
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    for (const pos of batch.structs(2, 16)) {
      if (batch.fb.i64(pos + 8) === 0n) continue;
      const offset = Number(batch.fb.i64(pos));
      const size = sizes[next++];
      if (view.getBigInt64(offset, true) !== -1n) view.setBigInt64(offset, BigInt(size), true);
    }
  };
  let dictionaries: Message[] = [];
  for (const message of messages(bytes, "the written Arrow IPC stream")) {
    if (message.headerType === 2) dictionaries.push(message);
    if (message.headerType !== 3) continue;
    patch(message, message.header);
    for (const d of dictionaries) patch(d, d.header.table(1));
    dictionaries = [];
  }
  if (next !== sizes.length)
    throw new Error(`compressed ${sizes.length} buffers but found ${next} in the stream`);
}

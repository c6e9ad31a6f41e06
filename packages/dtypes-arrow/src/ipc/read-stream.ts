import { DecodeError } from "@z/codecs";
import { bufferCount, type ColumnNode, nodeChildren } from "../column/node.js";
import { type ReadContext, readColumn } from "../column/read.js";
import { ArrowFieldError, ArrowSchemaMismatchError } from "../errors.js";
import { type ArrowField, dictionaryValueField } from "../field/model.js";
import {
  type CompressedBuffer,
  compressedBuffers,
  DEFAULT_MAX_DECOMPRESSED_BYTES,
  type DecompressedBodies,
  decompressBuffer,
} from "./body-compression.js";
import { FlatBuffer, type Table } from "./flatbuffer.js";
import { schemaFields } from "./schema.js";

const CONTINUATION = 0xffffffff;
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY_BATCH = 2;
const HEADER_RECORD_BATCH = 3;
/** MetadataVersion V4 (Arrow 0.8 to 0.17) and V5 (1.0 and later). */
const V4 = 3;
const V5 = 4;

/** Which column of the stream to read. */
export type ColumnChoice = { index: number } | { name: string };

/** Options of {@link readIpcStream}. */
export interface ReadIpcOptions {
  /** The column to read (default: the only one). */
  column?: ColumnChoice;
  /** The number of elements the column must have, when known. */
  expectedLength?: number;
  /**
   * The most array elements (summed over every nested array and dictionary) the stream may
   * describe. Elements that take no bytes (nulls of the null type, struct members) are where a
   * hostile stream could ask for more than its size; the default allows 8 per byte plus
   * `expectedLength` times the number of fields.
   */
  maxElements?: number;
  /** Names the stream in error messages (a chunk key). */
  where?: string;
  /**
   * The most bytes the compressed buffers of the stream (LZ4_FRAME or ZSTD body compression)
   * may decode to, together: 1 GiB unless given. Each buffer's stated size is checked against
   * what is left before it is decoded.
   */
  maxDecompressedBytes?: number;
}

/** A column read from an IPC stream. */
export interface IpcColumn {
  /** The column's field as the stream's schema describes it. */
  field: ArrowField;
  /** Its elements, in the form `coerceElement` returns, record batches concatenated. */
  elements: unknown[];
}

/** One message of an IPC stream: its header table and body. */
export interface Message {
  header: Table;
  headerType: number;
  version: number;
  body: Uint8Array;
  fb: FlatBuffer;
}

/** Splits an IPC stream into messages, checking every length against the bytes there are. */
export function* messages(bytes: Uint8Array, where: string): Generator<Message> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  while (pos + 4 <= bytes.length) {
    let length = view.getUint32(pos, true);
    pos += 4;
    if (length === CONTINUATION) {
      if (pos + 4 > bytes.length)
        throw new DecodeError(`${where}: the Arrow IPC stream ends inside a message header`);
      length = view.getUint32(pos, true);
      pos += 4;
    }
    if (length === 0) return; // end-of-stream marker
    if (length > bytes.length - pos) {
      throw new DecodeError(
        `${where}: an Arrow IPC message claims ${length} bytes of metadata; ${bytes.length - pos} remain`,
      );
    }
    const fb = new FlatBuffer(bytes.subarray(pos, pos + length), where);
    pos += length;
    const message = fb.root();
    const version = message.i16(0);
    const headerType = message.u8(1);
    const header = message.table(2);
    const bodyLength = message.i64(3);
    if (version < V4 || version > V5) {
      throw new DecodeError(
        `${where}: Arrow IPC metadata version V${version + 1} is not supported (V4 and V5 are)`,
      );
    }
    if (!header) throw new DecodeError(`${where}: an Arrow IPC message has no header`);
    if (bodyLength < 0n || bodyLength > BigInt(bytes.length - pos)) {
      throw new DecodeError(
        `${where}: an Arrow IPC message claims a body of ${bodyLength} bytes; ${bytes.length - pos} remain`,
      );
    }
    const body = bytes.subarray(pos, pos + Number(bodyLength));
    pos += Number(bodyLength);
    yield { header, headerType, version, body, fb };
  }
  if (pos !== bytes.length)
    throw new DecodeError(`${where}: the Arrow IPC stream ends inside a message header`);
}

/** Lays out the arrays a record batch describes as nodes, taking field nodes and buffers in order. */
class BatchLayout {
  private nodeIndex = 0;
  private bufferIndex = 0;
  private readonly nodes: number[];
  private readonly buffers: number[];
  private readonly variadicCounts: number[];
  private variadicIndex = 0;
  total = 0;

  constructor(
    private readonly message: Message,
    batch: Table,
    private readonly where: string,
    /** The batch's buffers decoded, when its body is compressed. */
    private readonly decoded: Uint8Array[] | undefined,
  ) {
    if (batch.table(3) && !decoded) {
      throw new DecodeError(
        `${where}: the Arrow IPC record batch is compressed (LZ4_FRAME/ZSTD body compression); readIpcStreamAsync reads it`,
      );
    }
    this.nodes = batch.structs(1, 16);
    this.buffers = batch.structs(2, 16);
    this.variadicCounts = batch.structs(4, 8);
  }

  /** How many data buffers the next view array has (the batch's `variadicBufferCounts`). */
  private nextVariadicCount(field: ArrowField): number {
    const pos = this.variadicCounts[this.variadicIndex++];
    if (pos === undefined) {
      throw new DecodeError(
        `${this.where}: the Arrow record batch lacks the variadic buffer count of the view array ${JSON.stringify(field.name)}`,
      );
    }
    const count = this.message.fb.i64(pos);
    // Each buffer takes 16 bytes of the buffer list: more than that list holds is corrupt.
    if (count < 0n || count > BigInt(this.buffers.length - this.bufferIndex)) {
      throw new DecodeError(
        `${this.where}: the view array ${JSON.stringify(field.name)} claims ${count} data buffers; the record batch lists ${this.buffers.length - this.bufferIndex} more`,
      );
    }
    return Number(count);
  }

  /** The number of rows the batch declares. */
  static rows(batch: Table, where: string): number {
    const rows = batch.i64(0);
    if (rows < 0n || rows > BigInt(Number.MAX_SAFE_INTEGER))
      throw new DecodeError(`${where}: an Arrow record batch claims ${rows} rows`);
    return Number(rows);
  }

  private nextNode(field: ArrowField): { length: number; nullCount: number } {
    const pos = this.nodes[this.nodeIndex++];
    if (pos === undefined) {
      throw new DecodeError(
        `${this.where}: the Arrow record batch has fewer field nodes than its schema needs (at ${JSON.stringify(field.name)})`,
      );
    }
    const { fb } = this.message;
    const length = fb.i64(pos);
    // The null type has no validity: its null count is its length, whatever a writer put there
    // (apache-arrow writes -1, "unknown", for sliced null arrays).
    const nullCount = field.type.name === "null" && !field.dictionary ? length : fb.i64(pos + 8);
    if (
      length < 0n ||
      length > BigInt(Number.MAX_SAFE_INTEGER) ||
      nullCount < 0n ||
      nullCount > length
    ) {
      throw new DecodeError(
        `${this.where}: the Arrow record batch has a field node of length ${length} with ${nullCount} nulls`,
      );
    }
    this.total += Number(length);
    return { length: Number(length), nullCount: Number(nullCount) };
  }

  private nextBuffer(): Uint8Array {
    const pos = this.buffers[this.bufferIndex++];
    if (pos === undefined)
      throw new DecodeError(
        `${this.where}: the Arrow record batch has fewer buffers than its schema needs`,
      );
    if (this.decoded) return this.decoded[this.bufferIndex - 1];
    const { fb, body } = this.message;
    const offset = fb.i64(pos);
    const length = fb.i64(pos + 8);
    if (offset < 0n || length < 0n || offset + length > BigInt(body.length)) {
      throw new DecodeError(
        `${this.where}: an Arrow buffer at offset ${offset} of ${length} bytes lies outside the ${body.length}-byte message body`,
      );
    }
    return body.subarray(Number(offset), Number(offset + length));
  }

  /** The node of a field and its descendants. */
  node(field: ArrowField): ColumnNode {
    const { length, nullCount } = this.nextNode(field);
    const unionValidity =
      this.message.version < V5 && field.type.name === "union" && !field.dictionary;
    const buffers: Uint8Array[] = [];
    for (let k = bufferCount(field, unionValidity); k > 0; k--) buffers.push(this.nextBuffer());
    if (unionValidity) buffers.shift();
    if (isViewType(field)) {
      for (let k = this.nextVariadicCount(field); k > 0; k--) buffers.push(this.nextBuffer());
    }
    const children = nodeChildren(field).map((child) => this.node(child));
    return { length, nullCount, buffers, children };
  }

  /** Checks that the batch had nothing left over (a schema and batch that disagree). */
  finish(): void {
    if (this.nodeIndex !== this.nodes.length) {
      throw new DecodeError(
        `${this.where}: the Arrow record batch has ${this.nodes.length} field nodes; its schema describes ${this.nodeIndex}`,
      );
    }
    if (this.variadicIndex !== this.variadicCounts.length) {
      throw new DecodeError(
        `${this.where}: the Arrow record batch has ${this.variadicCounts.length} variadic buffer counts; its schema has ${this.variadicIndex} view arrays`,
      );
    }
  }
}

function isViewType(field: ArrowField): boolean {
  return !field.dictionary && (field.type.name === "utf8view" || field.type.name === "binaryview");
}

/** Every dictionary-encoded field of a schema (also inside nested fields and dictionaries), by id. */
function dictionaryFields(
  fields: ArrowField[],
  into = new Map<number, ArrowField>(),
): Map<number, ArrowField> {
  for (const field of fields) {
    if (field.dictionary) into.set(field.dictionary.id, field);
    dictionaryFields(field.children, into);
  }
  return into;
}

function countFields(field: ArrowField): number {
  return 1 + field.children.reduce((n, child) => n + countFields(child), 0);
}

/**
 * Reads one column of an Arrow IPC stream (schema, dictionary batches, record batches, end of
 * stream) into elements, without apache-arrow. Every message length, body length, buffer range,
 * field node and offset is checked against the bytes before it is used, and the number of
 * elements the stream may describe is bounded, so hostile input cannot make it allocate more
 * than a few times its own size. Compressed bodies and big-endian data are refused.
 * @throws DecodeError for anything malformed; ArrowSchemaMismatchError when the schema lacks the
 *   column or has a type this package does not read
 */
export function readIpcStream(bytes: Uint8Array, options: ReadIpcOptions = {}): IpcColumn {
  return readStream(bytes, options, new Map());
}

/**
 * {@link readIpcStream} for streams whose record batches may be compressed (Arrow IPC body
 * compression, LZ4_FRAME or ZSTD): every buffer's stated decoded size is checked against the
 * body and `maxDecompressedBytes` first, then each is decoded to exactly that size.
 * @throws DecodeError as readIpcStream, and for compressed buffers that do not decode
 */
export async function readIpcStreamAsync(
  bytes: Uint8Array,
  options: ReadIpcOptions = {},
): Promise<IpcColumn> {
  return readIpcStreamEither(bytes, options);
}

/** Reads a stream synchronously when nothing in it is compressed, else asynchronously. */
export function readIpcStreamEither(
  bytes: Uint8Array,
  options: ReadIpcOptions = {},
): IpcColumn | Promise<IpcColumn> {
  const where = options.where ?? "Arrow IPC stream";
  const limit = options.maxDecompressedBytes ?? DEFAULT_MAX_DECOMPRESSED_BYTES;
  const budget = { left: limit };
  const pending: [number, (Uint8Array | CompressedBuffer)[]][] = [];
  let ordinal = 0;
  for (const message of messages(bytes, where)) {
    const batch =
      message.headerType === HEADER_DICTIONARY_BATCH
        ? message.header.table(1)
        : message.headerType === HEADER_RECORD_BATCH
          ? message.header
          : undefined;
    const buffers = batch && compressedBuffers(batch, message.body, budget, where);
    if (buffers) pending.push([ordinal, buffers]);
    ordinal++;
  }
  if (pending.length === 0) return readStream(bytes, options, new Map());
  return (async () => {
    const bodies: DecompressedBodies = new Map();
    for (const [at, buffers] of pending) {
      const decoded: Uint8Array[] = [];
      for (const b of buffers)
        decoded.push(b instanceof Uint8Array ? b : await decompressBuffer(b, budget, where));
      bodies.set(at, decoded);
    }
    return readStream(bytes, options, bodies, limit - budget.left);
  })();
}

function readStream(
  bytes: Uint8Array,
  options: ReadIpcOptions,
  bodies: DecompressedBodies,
  decompressedTotal = 0,
): IpcColumn {
  const where = options.where ?? "Arrow IPC stream";
  let fields: ArrowField[] | undefined;
  let column = -1;
  let dictionaries = new Map<number, ArrowField>();
  const decoded = new Map<number, unknown[]>();
  const batches: unknown[][] = [];
  let rows = 0;
  let budget = options.maxElements ?? Number.POSITIVE_INFINITY;
  // Views may share bytes: what they copy out is bounded by the bytes there are, times 64.
  const viewBytes = { left: 64 * (bytes.length + decompressedTotal) + (1 << 20) };
  const ctx: ReadContext = { dictionaries: decoded, where, viewBytes };
  let ordinal = -1;
  for (const message of messages(bytes, where)) {
    ordinal++;
    if (message.headerType === HEADER_SCHEMA) {
      if (fields)
        throw new DecodeError(`${where}: the Arrow IPC stream has a second schema message`);
      if (message.header.i16(0) !== 0) {
        throw new DecodeError(
          `${where}: the Arrow IPC stream is big-endian, which is not supported`,
        );
      }
      try {
        fields = schemaFields(message.fb, message.header);
      } catch (error) {
        if (error instanceof ArrowFieldError)
          throw new ArrowSchemaMismatchError(`${where}: ${error.message}`);
        throw error;
      }
      column = chooseColumn(fields, options.column, where);
      dictionaries = dictionaryFields(fields);
      if (options.maxElements === undefined) {
        budget =
          8 * (bytes.length + decompressedTotal) +
          (options.expectedLength ?? 0) * countFields(fields[column]) +
          1024;
      }
      continue;
    }
    if (!fields)
      throw new DecodeError(`${where}: the Arrow IPC stream does not start with a schema message`);
    if (message.headerType === HEADER_DICTIONARY_BATCH) {
      const id = Number(message.header.i64(0));
      const owner = dictionaries.get(id);
      if (!owner)
        throw new DecodeError(
          `${where}: the Arrow IPC stream sends dictionary ${id}, which no field uses`,
        );
      const data = message.header.table(1);
      if (!data) throw new DecodeError(`${where}: an Arrow dictionary batch has no data`);
      const layout = new BatchLayout(message, data, where, bodies.get(ordinal));
      const valueField = dictionaryValueField(owner);
      const node = layout.node(valueField);
      layout.finish();
      budget -= layout.total;
      if (budget < 0) throw tooMany(where);
      const values = readColumn(valueField, node, ctx);
      const isDelta = message.header.bool(2);
      decoded.set(id, isDelta ? [...(decoded.get(id) ?? []), ...values] : values);
      continue;
    }
    if (message.headerType !== HEADER_RECORD_BATCH) {
      throw new DecodeError(
        `${where}: the Arrow IPC stream has a message of type ${message.headerType} (tensors are not read)`,
      );
    }
    const layout = new BatchLayout(message, message.header, where, bodies.get(ordinal));
    const length = BatchLayout.rows(message.header, where);
    let node: ColumnNode | undefined;
    fields.forEach((field, i) => {
      const n = layout.node(field);
      if (i === column) node = n;
    });
    layout.finish();
    budget -= layout.total;
    if (budget < 0) throw tooMany(where);
    if (node!.length !== length) {
      throw new DecodeError(
        `${where}: the Arrow record batch has ${length} rows but its column has ${node!.length} elements`,
      );
    }
    rows += length;
    if (options.expectedLength !== undefined && rows > options.expectedLength) break;
    batches.push(readColumn(fields[column], node!, ctx));
  }
  if (!fields)
    throw new DecodeError(`${where}: the bytes are not an Arrow IPC stream (no schema message)`);
  if (options.expectedLength !== undefined && rows !== options.expectedLength) {
    throw new DecodeError(
      `${where}: the Arrow IPC stream holds ${rows} elements; the chunk has ${options.expectedLength}`,
    );
  }
  return { field: fields[column], elements: batches.length === 1 ? batches[0] : batches.flat() };
}

function tooMany(where: string): DecodeError {
  return new DecodeError(
    `${where}: the Arrow IPC stream describes more array elements than its size allows; it is corrupt`,
  );
}

function chooseColumn(
  fields: ArrowField[],
  choice: ColumnChoice | undefined,
  where: string,
): number {
  if (choice === undefined) {
    if (fields.length !== 1) {
      throw new ArrowSchemaMismatchError(
        `${where}: the Arrow IPC stream has ${fields.length} columns; exactly one was expected`,
      );
    }
    return 0;
  }
  if ("index" in choice) {
    if (choice.index >= fields.length)
      throw new ArrowSchemaMismatchError(
        `${where}: the Arrow IPC stream has no column ${choice.index}`,
      );
    return choice.index;
  }
  const index = fields.findIndex((f) => f.name === choice.name);
  if (index < 0) {
    throw new ArrowSchemaMismatchError(
      `${where}: the Arrow IPC stream has no column named ${JSON.stringify(choice.name)} (it has ${fields.map((f) => JSON.stringify(f.name)).join(", ")})`,
    );
  }
  return index;
}

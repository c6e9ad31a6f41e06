import { DecodeError } from "@z/codecs";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A bounds-checked reader of one FlatBuffers buffer (an Arrow IPC message's metadata). Every
 * offset, vtable and vector length is checked against the buffer before it is followed, so a
 * corrupt or hostile message is a DecodeError, never a read past the end, a huge allocation or
 * a loop over a made-up length.
 */
export class FlatBuffer {
  private readonly view: DataView;

  constructor(
    readonly bytes: Uint8Array,
    private readonly where: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Fails with a DecodeError naming the message. */
  fail(problem: string): never {
    throw new DecodeError(`${this.where}: corrupt Arrow IPC metadata (${problem})`);
  }

  private check(pos: number, size: number): void {
    if (!Number.isInteger(pos) || pos < 0 || pos + size > this.bytes.length) {
      this.fail(
        `a read of ${size} bytes at ${pos} is outside the ${this.bytes.length}-byte message`,
      );
    }
  }

  /** The root table. */
  root(): Table {
    this.check(0, 4);
    return this.table(this.view.getUint32(0, true));
  }

  /** The table at a position. */
  table(pos: number): Table {
    this.check(pos, 4);
    const vtable = pos - this.view.getInt32(pos, true);
    this.check(vtable, 4);
    const vtableSize = this.view.getUint16(vtable, true);
    const tableSize = this.view.getUint16(vtable + 2, true);
    if (vtableSize < 4 || vtableSize % 2 !== 0) this.fail(`a vtable of ${vtableSize} bytes`);
    this.check(vtable, vtableSize);
    this.check(pos, tableSize);
    return new Table(this, pos, vtable, vtableSize, tableSize);
  }

  /** A signed 8-bit integer. */
  i8(pos: number): number {
    this.check(pos, 1);
    return this.view.getInt8(pos);
  }
  /** An unsigned 8-bit integer. */
  u8(pos: number): number {
    this.check(pos, 1);
    return this.view.getUint8(pos);
  }
  /** An unsigned 16-bit integer. */
  u16(pos: number): number {
    this.check(pos, 2);
    return this.view.getUint16(pos, true);
  }
  /** A signed 16-bit integer. */
  i16(pos: number): number {
    this.check(pos, 2);
    return this.view.getInt16(pos, true);
  }
  /** A signed 32-bit integer. */
  i32(pos: number): number {
    this.check(pos, 4);
    return this.view.getInt32(pos, true);
  }
  /** An unsigned 32-bit integer. */
  u32(pos: number): number {
    this.check(pos, 4);
    return this.view.getUint32(pos, true);
  }
  /** A signed 64-bit integer. */
  i64(pos: number): bigint {
    this.check(pos, 8);
    return this.view.getBigInt64(pos, true);
  }

  /** Where an offset stored at `pos` points. */
  indirect(pos: number): number {
    return pos + this.u32(pos);
  }

  /** The start and length of a vector whose offset is stored at `pos`, checked to fit. */
  vector(pos: number, elementSize: number): { start: number; length: number } {
    const at = this.indirect(pos);
    const length = this.u32(at);
    if (length * elementSize > this.bytes.length)
      this.fail(`a vector of ${length} items in a ${this.bytes.length}-byte message`);
    this.check(at + 4, length * elementSize);
    return { start: at + 4, length };
  }

  /** A UTF-8 string whose offset is stored at `pos`. */
  string(pos: number): string {
    const { start, length } = this.vector(pos, 1);
    try {
      return utf8.decode(this.bytes.subarray(start, start + length));
    } catch {
      return this.fail("a string that is not UTF-8");
    }
  }
}

/** One FlatBuffers table: its fields by id, with their schema defaults when absent. */
export class Table {
  constructor(
    readonly fb: FlatBuffer,
    readonly pos: number,
    private readonly vtable: number,
    private readonly vtableSize: number,
    private readonly tableSize: number,
  ) {}

  /** The position of field `id` in the buffer, or 0 when the field is absent. */
  field(id: number): number {
    const slot = 4 + 2 * id;
    if (slot >= this.vtableSize) return 0;
    const offset = this.fb.u16(this.vtable + slot);
    if (offset === 0) return 0;
    if (offset >= this.tableSize)
      this.fb.fail(`field ${id} at offset ${offset} of a ${this.tableSize}-byte table`);
    return this.pos + offset;
  }

  /** A boolean field. */
  bool(id: number, fallback = false): boolean {
    const at = this.field(id);
    return at ? this.fb.u8(at) !== 0 : fallback;
  }
  /** An unsigned 8-bit field. */
  u8(id: number, fallback = 0): number {
    const at = this.field(id);
    return at ? this.fb.u8(at) : fallback;
  }
  /** A signed 8-bit field. */
  i8(id: number, fallback = 0): number {
    const at = this.field(id);
    return at ? this.fb.i8(at) : fallback;
  }
  /** A signed 16-bit field. */
  i16(id: number, fallback = 0): number {
    const at = this.field(id);
    return at ? this.fb.i16(at) : fallback;
  }
  /** A signed 32-bit field. */
  i32(id: number, fallback = 0): number {
    const at = this.field(id);
    return at ? this.fb.i32(at) : fallback;
  }
  /** A signed 64-bit field. */
  i64(id: number, fallback = 0n): bigint {
    const at = this.field(id);
    return at ? this.fb.i64(at) : fallback;
  }
  /** A string field, or undefined when absent. */
  string(id: number): string | undefined {
    const at = this.field(id);
    return at ? this.fb.string(at) : undefined;
  }
  /** A table field, or undefined when absent. */
  table(id: number): Table | undefined {
    const at = this.field(id);
    return at ? this.fb.table(this.fb.indirect(at)) : undefined;
  }
  /** A vector of tables. */
  tables(id: number): Table[] {
    const at = this.field(id);
    if (!at) return [];
    const { start, length } = this.fb.vector(at, 4);
    return Array.from({ length }, (_, i) => this.fb.table(this.fb.indirect(start + 4 * i)));
  }
  /** A vector of structs of `size` bytes: the position of each. */
  structs(id: number, size: number): number[] {
    const at = this.field(id);
    if (!at) return [];
    const { start, length } = this.fb.vector(at, size);
    return Array.from({ length }, (_, i) => start + size * i);
  }
  /** A vector of 32-bit integers. */
  ints(id: number): number[] {
    return this.structs(id, 4).map((pos) => this.fb.i32(pos));
  }
}

/**
 * A reader of the flatbuffers wire format that checks every offset and length against the
 * buffer before it follows or allocates: a corrupt or hostile file fails with the `fail`
 * callback's error, never an out-of-bounds read or a huge allocation. Only what Icechunk's
 * schemas use: tables, scalars, structs, strings, byte vectors, vectors of tables and structs,
 * and unions.
 */

/** Raises the caller's typed error for a structural problem. */
export type FailFn = (reason: string) => never;

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The whole buffer, bounds checks and the error to raise. */
export class FbBuffer {
  readonly view: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly fail: FailFn,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Throws unless `[pos, pos + size)` lies inside the buffer. */
  check(pos: number, size: number, what: string): void {
    if (!Number.isSafeInteger(pos) || pos < 0 || size < 0 || pos + size > this.bytes.length)
      this.fail(
        `${what} at byte ${pos} (${size} bytes) lies outside the ${this.bytes.length}-byte payload`,
      );
  }

  u8(pos: number, what: string): number {
    this.check(pos, 1, what);
    return this.view.getUint8(pos);
  }
  u16(pos: number, what: string): number {
    this.check(pos, 2, what);
    return this.view.getUint16(pos, true);
  }
  u32(pos: number, what: string): number {
    this.check(pos, 4, what);
    return this.view.getUint32(pos, true);
  }
  i32(pos: number, what: string): number {
    this.check(pos, 4, what);
    return this.view.getInt32(pos, true);
  }
  /** A u64 as a number; values past 2^53 are refused rather than rounded. */
  u64(pos: number, what: string): number {
    this.check(pos, 8, what);
    const value = this.view.getBigUint64(pos, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) this.fail(`${what} is ${value}, beyond 2^53`);
    return Number(value);
  }

  /** The root table (the buffer starts with its offset). */
  root(what: string): FbTable {
    return this.table(this.u32(0, `${what} root offset`), what);
  }

  /** The table at `pos`, with its vtable checked. */
  table(pos: number, what: string): FbTable {
    const vtable = pos - this.i32(pos, `${what} vtable offset`);
    const vtableSize = this.u16(vtable, `${what} vtable`);
    const tableSize = this.u16(vtable + 2, `${what} vtable`);
    if (vtableSize < 4 || vtableSize % 2 !== 0)
      this.fail(`${what} has a vtable of ${vtableSize} bytes`);
    this.check(vtable, vtableSize, `${what} vtable`);
    this.check(pos, tableSize, `${what} table`);
    return new FbTable(this, pos, vtable, vtableSize, tableSize, what);
  }
}

/** One table: its fields by id, each read checked against the table and the buffer. */
export class FbTable {
  constructor(
    readonly buf: FbBuffer,
    readonly pos: number,
    readonly vtable: number,
    readonly vtableSize: number,
    readonly tableSize: number,
    readonly what: string,
  ) {}

  /** The field's absolute position, or undefined when absent. */
  #field(id: number, size: number, name: string): number | undefined {
    const entry = 4 + 2 * id;
    if (entry + 2 > this.vtableSize) return undefined;
    const offset = this.buf.u16(this.vtable + entry, `${this.what}.${name}`);
    if (offset === 0) return undefined;
    if (offset + size > this.tableSize)
      this.buf.fail(`${this.what}.${name} lies outside its ${this.tableSize}-byte table`);
    return this.pos + offset;
  }

  has(id: number): boolean {
    const entry = 4 + 2 * id;
    return entry + 2 <= this.vtableSize && this.buf.u16(this.vtable + entry, this.what) !== 0;
  }

  u8(id: number, name: string, fallback = 0): number {
    const p = this.#field(id, 1, name);
    return p === undefined ? fallback : this.buf.u8(p, `${this.what}.${name}`);
  }
  u16(id: number, name: string, fallback = 0): number {
    const p = this.#field(id, 2, name);
    return p === undefined ? fallback : this.buf.u16(p, `${this.what}.${name}`);
  }
  u32(id: number, name: string, fallback = 0): number {
    const p = this.#field(id, 4, name);
    return p === undefined ? fallback : this.buf.u32(p, `${this.what}.${name}`);
  }
  i32(id: number, name: string, fallback = 0): number {
    const p = this.#field(id, 4, name);
    return p === undefined ? fallback : this.buf.i32(p, `${this.what}.${name}`);
  }
  u64(id: number, name: string, fallback = 0): number {
    const p = this.#field(id, 8, name);
    return p === undefined ? fallback : this.buf.u64(p, `${this.what}.${name}`);
  }

  /** A struct stored inline in the table: a view of its `size` bytes. */
  struct(id: number, size: number, name: string): Uint8Array | undefined {
    const p = this.#field(id, size, name);
    return p === undefined ? undefined : this.buf.bytes.subarray(p, p + size);
  }

  /** The position an offset field points to. */
  #target(id: number, name: string): number | undefined {
    const p = this.#field(id, 4, name);
    if (p === undefined) return undefined;
    return p + this.buf.u32(p, `${this.what}.${name}`);
  }

  /** A vector's element count and first element's position, its bytes checked. */
  #vector(
    id: number,
    elementSize: number,
    name: string,
  ): { start: number; length: number } | undefined {
    const at = this.#target(id, name);
    if (at === undefined) return undefined;
    const length = this.buf.u32(at, `${this.what}.${name} length`);
    this.buf.check(at + 4, length * elementSize, `${this.what}.${name} (${length} elements)`);
    return { start: at + 4, length };
  }

  string(id: number, name: string): string | undefined {
    const bytes = this.bytes(id, name);
    if (bytes === undefined) return undefined;
    try {
      return decoder.decode(bytes);
    } catch {
      return this.buf.fail(`${this.what}.${name} is not valid UTF-8`);
    }
  }

  requiredString(id: number, name: string): string {
    return this.string(id, name) ?? this.buf.fail(`${this.what}.${name} is missing`);
  }

  /** A `[ubyte]` vector (or a string's bytes) as a view. */
  bytes(id: number, name: string): Uint8Array | undefined {
    const v = this.#vector(id, 1, name);
    return v === undefined ? undefined : this.buf.bytes.subarray(v.start, v.start + v.length);
  }

  /** A vector of u32 values. */
  u32s(id: number, name: string): number[] | undefined {
    const v = this.#vector(id, 4, name);
    if (v === undefined) return undefined;
    const out: number[] = [];
    for (let i = 0; i < v.length; i++) out.push(this.buf.view.getUint32(v.start + 4 * i, true));
    return out;
  }

  /** A vector of structs of `size` bytes, each as a view. */
  structs(id: number, size: number, name: string): Uint8Array[] | undefined {
    const v = this.#vector(id, size, name);
    if (v === undefined) return undefined;
    const out: Uint8Array[] = [];
    for (let i = 0; i < v.length; i++)
      out.push(this.buf.bytes.subarray(v.start + i * size, v.start + (i + 1) * size));
    return out;
  }

  /** A vector of tables. */
  tables(id: number, name: string): FbTable[] | undefined {
    const v = this.#vector(id, 4, name);
    if (v === undefined) return undefined;
    const out: FbTable[] = [];
    for (let i = 0; i < v.length; i++) {
      const p = v.start + 4 * i;
      out.push(this.buf.table(p + this.buf.view.getUint32(p, true), `${this.what}.${name}[${i}]`));
    }
    return out;
  }

  /** A vector of strings. */
  strings(id: number, name: string): string[] | undefined {
    const v = this.#vector(id, 4, name);
    if (v === undefined) return undefined;
    const out: string[] = [];
    for (let i = 0; i < v.length; i++) {
      const p = v.start + 4 * i;
      const at = p + this.buf.view.getUint32(p, true);
      const length = this.buf.u32(at, `${this.what}.${name}[${i}] length`);
      this.buf.check(at + 4, length, `${this.what}.${name}[${i}]`);
      try {
        out.push(decoder.decode(this.buf.bytes.subarray(at + 4, at + 4 + length)));
      } catch {
        this.buf.fail(`${this.what}.${name}[${i}] is not valid UTF-8`);
      }
    }
    return out;
  }

  /** A table field (or a union's value). */
  table(id: number, name: string): FbTable | undefined {
    const at = this.#target(id, name);
    return at === undefined ? undefined : this.buf.table(at, `${this.what}.${name}`);
  }

  requiredTables(id: number, name: string): FbTable[] {
    return this.tables(id, name) ?? this.buf.fail(`${this.what}.${name} is missing`);
  }
}

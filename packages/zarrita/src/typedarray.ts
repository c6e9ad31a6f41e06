// zarrita's element containers for booleans and fixed-width strings. They are views over bytes
// (so a chunk decodes into them without copying) with `get(i)`/`set(i, v)` accessors, as
// zarrita hands them out; the @z stack's own containers (a Uint8Array-backed BoolArray,
// Uint8Array/Uint32Array code units) are converted to these at the API's edge.

function isBuffer(x: unknown): x is ArrayBufferLike {
  return (
    x instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer !== "undefined" && x instanceof SharedArrayBuffer)
  );
}

function checkIndex(index: number, length: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= length) {
    throw new RangeError(`index ${index} is out of bounds for length ${length}`);
  }
}

// Fixed-width strings are padded with NUL; zarrita reads every NUL out of the value.
const NUL = /\0/g;

/**
 * Booleans stored one per byte (zarrita's `BoolArray`): `get(i)` and `set(i, b)` read and write
 * `true`/`false`; iterating yields booleans.
 * @category Data types
 */
export class BoolArray {
  readonly #bytes: Uint8Array;

  /** `size` false values, the values of an iterable, or a view over bytes. */
  constructor(size: number);
  constructor(values: Iterable<boolean>);
  constructor(buffer: ArrayBufferLike, byteOffset?: number, length?: number);
  constructor(
    x: number | Iterable<boolean> | ArrayBufferLike,
    byteOffset?: number,
    length?: number,
  ) {
    if (typeof x === "number") this.#bytes = new Uint8Array(x);
    else if (isBuffer(x)) this.#bytes = new Uint8Array(x, byteOffset, length);
    else this.#bytes = Uint8Array.from(x as Iterable<boolean>, (b) => (b ? 1 : 0));
  }

  /** One byte per element. */
  get BYTES_PER_ELEMENT(): 1 {
    return 1;
  }
  /** Where the elements start in {@link BoolArray.buffer}. */
  get byteOffset(): number {
    return this.#bytes.byteOffset;
  }
  /** The bytes the elements take. */
  get byteLength(): number {
    return this.#bytes.byteLength;
  }
  /** The underlying buffer. */
  get buffer(): ArrayBufferLike {
    return this.#bytes.buffer;
  }
  /** The number of elements. */
  get length(): number {
    return this.#bytes.length;
  }
  /** The element at `index` (any non-zero byte is true; undefined past the end, as zarrita). */
  get(index: number): boolean {
    const byte = this.#bytes[index];
    return (byte === undefined ? undefined : byte !== 0) as boolean;
  }
  /** Sets the element at `index`. */
  set(index: number, value: boolean): void {
    this.#bytes[index] = value ? 1 : 0;
  }
  /** Sets every element. */
  fill(value: boolean): void {
    this.#bytes.fill(value ? 1 : 0);
  }
  /** The elements in order. */
  *[Symbol.iterator](): IterableIterator<boolean> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }
}

/**
 * Fixed-width byte strings, `chars` bytes per element, NUL-padded (zarrita's `ByteStringArray`,
 * NumPy's `S` type): `get(i)` decodes UTF-8 without the padding.
 * @category Data types
 */
export class ByteStringArray {
  /** The elements' bytes, `chars` per element. */
  _data: Uint8Array;
  /** Bytes per element. */
  chars: number;

  /** `size` empty strings, the strings of an iterable, or a view over bytes (`length` elements). */
  constructor(chars: number, size: number);
  constructor(chars: number, buffer: ArrayBufferLike, byteOffset?: number, length?: number);
  constructor(chars: number, values: Iterable<string>);
  constructor(
    chars: number,
    x: number | ArrayBufferLike | Iterable<string>,
    byteOffset?: number,
    length?: number,
  ) {
    this.chars = chars;
    if (typeof x === "number") {
      this._data = new Uint8Array(x * chars);
    } else if (isBuffer(x)) {
      this._data = new Uint8Array(x, byteOffset, length === undefined ? undefined : length * chars);
    } else {
      const values = [...(x as Iterable<string>)];
      this._data = new Uint8Array(values.length * chars);
      for (const [i, value] of values.entries()) this.set(i, value);
    }
  }

  /** Bytes per element. */
  get BYTES_PER_ELEMENT(): number {
    return this.chars;
  }
  /** Where the elements start in {@link ByteStringArray.buffer}. */
  get byteOffset(): number {
    return this._data.byteOffset;
  }
  /** The bytes the elements take. */
  get byteLength(): number {
    return this._data.byteLength;
  }
  /** The underlying buffer. */
  get buffer(): ArrayBufferLike {
    return this._data.buffer;
  }
  /** The number of elements. */
  get length(): number {
    return this.chars === 0 ? 0 : this._data.byteLength / this.chars;
  }
  /** The string at `index`. */
  get(index: number): string {
    checkIndex(index, this.length);
    const bytes = this._data.subarray(index * this.chars, (index + 1) * this.chars);
    return new TextDecoder().decode(bytes).replace(NUL, "");
  }
  /** Sets the string at `index` (UTF-8, cut to `chars` bytes). */
  set(index: number, value: string): void {
    checkIndex(index, this.length);
    const slot = this._data.subarray(index * this.chars, (index + 1) * this.chars);
    slot.fill(0);
    slot.set(new TextEncoder().encode(value).subarray(0, this.chars));
  }
  /** Sets every element. */
  fill(value: string): void {
    const encoded = new TextEncoder().encode(value).subarray(0, this.chars);
    for (let i = 0; i < this.length; i++) {
      this._data.fill(0, i * this.chars, (i + 1) * this.chars);
      this._data.set(encoded, i * this.chars);
    }
  }
  /** The elements in order. */
  *[Symbol.iterator](): IterableIterator<string> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }
}

/**
 * Fixed-width Unicode strings, `chars` UTF-32 code points per element, NUL-padded (zarrita's
 * `UnicodeStringArray`, NumPy's `U` type).
 * @category Data types
 */
export class UnicodeStringArray {
  readonly #data: Int32Array;
  /** Code points per element. */
  chars: number;

  /** `size` empty strings, the strings of an iterable, or a view over bytes (`length` elements). */
  constructor(chars: number, size: number);
  constructor(chars: number, buffer: ArrayBufferLike, byteOffset?: number, length?: number);
  constructor(chars: number, values: Iterable<string>);
  constructor(
    chars: number,
    x: number | ArrayBufferLike | Iterable<string>,
    byteOffset?: number,
    length?: number,
  ) {
    this.chars = chars;
    if (typeof x === "number") {
      this.#data = new Int32Array(x * chars);
    } else if (isBuffer(x)) {
      this.#data = new Int32Array(x, byteOffset, length === undefined ? undefined : length * chars);
    } else {
      const values = [...(x as Iterable<string>)];
      this.#data = new Int32Array(values.length * chars);
      for (const [i, value] of values.entries()) this.set(i, value);
    }
  }

  /** Bytes per element (four per code point). */
  get BYTES_PER_ELEMENT(): number {
    return 4 * this.chars;
  }
  /** Where the elements start in {@link UnicodeStringArray.buffer}. */
  get byteOffset(): number {
    return this.#data.byteOffset;
  }
  /** The bytes the elements take. */
  get byteLength(): number {
    return this.#data.byteLength;
  }
  /** The underlying buffer. */
  get buffer(): ArrayBufferLike {
    return this.#data.buffer;
  }
  /** The number of elements. */
  get length(): number {
    return this.chars === 0 ? 0 : this.#data.length / this.chars;
  }
  /** The string at `index`. */
  get(index: number): string {
    checkIndex(index, this.length);
    const points = this.#data.subarray(index * this.chars, (index + 1) * this.chars);
    return String.fromCodePoint(...points).replace(NUL, "");
  }
  /** Sets the string at `index` (cut to `chars` code points). */
  set(index: number, value: string): void {
    checkIndex(index, this.length);
    const slot = this.#data.subarray(index * this.chars, (index + 1) * this.chars);
    slot.fill(0);
    let i = 0;
    for (const ch of value) {
      if (i === this.chars) break;
      slot[i++] = ch.codePointAt(0) ?? 0;
    }
  }
  /** Sets every element. */
  fill(value: string): void {
    for (let i = 0; i < this.length; i++) this.set(i, value);
  }
  /** The elements in order. */
  *[Symbol.iterator](): IterableIterator<string> {
    for (let i = 0; i < this.length; i++) yield this.get(i);
  }
}

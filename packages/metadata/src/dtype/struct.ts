import { formatValue } from "@z/errors";
import type { Container } from "@z/ndarray";
import { bytesOf } from "@z/ndarray";
import { FillValueError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json-object.js";
import { stringifyJson } from "../json-write.js";
import { checkLimit } from "../limit-check.js";
import { base64ToBytes, bytesToBase64 } from "./base64.js";
import { InvalidDataTypeError } from "./dtype-errors.js";
import type { DataType, Endian, ZarrFormat } from "./types.js";
import { valueDescription } from "./value-description.js";
import { ValueTypeError } from "./value-errors.js";

/** One record of a structured array: field name to value (nested records are objects). */
export type StructValue = { [field: string]: unknown };

/** A field of a {@link StructType}. */
export interface StructField {
  /** The field name (unique within its record). */
  readonly name: string;
  /** The element type of the field (a {@link StructType} for a nested record). */
  readonly dataType: DataType;
  /** The subarray shape of the field; `[]` for a field holding one element. */
  readonly shape: readonly number[];
  /**
   * A byte order the field always has (v2 type strings name one per field), or `undefined` to
   * take the byte order of the `bytes` codec (v3).
   */
  readonly endian?: Endian;
}

/** What {@link structType} takes for each field. */
export interface StructFieldSpec {
  /** The field name. */
  name: string;
  /** The element type. */
  dataType: DataType;
  /** The subarray shape (default `[]`). */
  shape?: readonly number[];
  /** A fixed byte order for the field (default: the codec's). */
  endian?: Endian;
}

interface Layout extends StructField {
  /** Byte offset in a record. */
  readonly offset: number;
  /** Elements of `dataType` in the field. */
  readonly count: number;
  /** Bytes of the field. */
  readonly size: number;
}

/** A leaf field whose bytes may need a byte-order change, at its offset in the outermost record. */
interface Leaf {
  readonly offset: number;
  readonly dataType: DataType;
  readonly count: number;
  readonly endian?: Endian;
}

const countOf = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** Nests a flat list by a shape (C order); a 0-d shape gives the one element. */
function nest(items: unknown[], shape: readonly number[]): unknown {
  if (shape.length === 0) return items[0];
  const [first, ...rest] = shape;
  const step = countOf(rest);
  return Array.from({ length: first }, (_, i) => nest(items.slice(i * step, (i + 1) * step), rest));
}

/** Flattens nested arrays of `depth` levels. */
function flatten(value: unknown, depth: number): unknown[] {
  if (depth === 0) return [value];
  if (!Array.isArray(value)) return [value];
  return value.flatMap((v) => flatten(v, depth - 1));
}

const isStruct = (dataType: DataType): dataType is StructType => dataType instanceof StructType;

/**
 * The field type's container over in-memory field bytes. Nested records are already in the
 * in-memory layout; everything else is little-endian there.
 */
function fromMemory(dataType: DataType, bytes: Uint8Array, count: number): Container {
  return isStruct(dataType) ? bytes : dataType.decode(bytes, count, "little");
}

/** The in-memory bytes of a field type's container (the inverse of {@link fromMemory}). */
function toMemory(dataType: DataType, data: Container): Uint8Array {
  return isStruct(dataType) ? (data as Uint8Array) : bytesOf(dataType.encode(data, "little"));
}

/**
 * Structured records (NumPy structured dtypes): v2 dtype lists such as
 * `[["x", "<f4"], ["sub", [["a", "|u1"]]], ["m", "<i4", [2, 3]]]` and v3 `struct` (and the
 * older `structured`) with nested records and subarray fields.
 *
 * In memory a block of records is one Uint8Array of packed little-endian records (`lanes` =
 * `itemSize`), so chunks copy as bytes and a little-endian chunk decodes without a copy. Read
 * it either way:
 * - record by record: `getElement(data, i)` gives `{x: 1.5, sub: {a: 3}, m: [[...], [...]]}`
 *   (nested records as objects, subarray fields as nested arrays); `setElement` takes the same;
 * - field by field: `column(data, "x")` gives the field of every record as the field type's own
 *   container (a Float32Array here; subarray fields give `count` values per record), and
 *   `setColumn` writes one back.
 *
 * Fill values: base64 of the record bytes in v2 (as zarr-python 2 writes them; `0` means zeros),
 * `{field: fill}` objects in v3.
 */
export class StructType implements DataType<StructValue, Uint8Array> {
  readonly kind = "struct";
  readonly name: string;
  readonly itemSize: number;
  readonly lanes: number;
  readonly endianSensitive: boolean;
  readonly defaultFill: StructValue;
  /** The fields, in record order. */
  readonly fields: readonly StructField[];
  private readonly layout: readonly Layout[];
  private readonly byName: ReadonlyMap<string, Layout>;
  private readonly leaves: readonly Leaf[];

  /** Levels of records: 1, plus the deepest nested record's. */
  readonly depth: number;

  constructor(fields: readonly StructFieldSpec[]) {
    if (!Array.isArray(fields) || fields.length === 0)
      throw new InvalidDataTypeError("A structured data type needs at least one field");
    const layout: Layout[] = [];
    const names = new Set<string>();
    let offset = 0;
    let depth = 1;
    for (const spec of fields) {
      const shape = Array.isArray(spec.shape) ? [...spec.shape] : [];
      if (typeof spec.name !== "string" || spec.name === "") {
        throw new InvalidDataTypeError(
          `Structured field names must be non-empty strings, got ${formatValue(spec.name, { bigint: "suffix" })}`,
        );
      }
      const field = JSON.stringify(spec.name);
      if (names.has(spec.name))
        throw new InvalidDataTypeError(`Structured data type has the field name ${field} twice`);
      names.add(spec.name);
      if (!shape.every((n) => Number.isSafeInteger(n) && n >= 1)) {
        throw new InvalidDataTypeError(
          `Field ${field}: a subarray shape needs positive integers, got ${formatValue(spec.shape, { bigint: "suffix" })}`,
        );
      }
      const itemSize = spec.dataType?.itemSize;
      if (typeof itemSize !== "number" || !(itemSize > 0)) {
        throw new InvalidDataTypeError(
          `Field ${field}: ${spec.dataType?.name ?? formatValue(spec.dataType)} has no fixed size and cannot be a field of a record`,
        );
      }
      if (isStruct(spec.dataType)) depth = Math.max(depth, spec.dataType.depth + 1);
      checkLimit("maxStructDepth", depth, `The nesting depth of records at the field ${field}`);
      const count = countOf(shape);
      const size = count * itemSize;
      checkLimit("maxItemSize", offset + size, `The record size up to the field ${field}`);
      layout.push({
        name: spec.name,
        dataType: spec.dataType,
        shape,
        endian: spec.endian,
        offset,
        count,
        size,
      });
      offset += size;
    }
    this.depth = depth;
    this.layout = layout;
    this.fields = layout.map(({ name, dataType, shape, endian }) => ({
      name,
      dataType,
      shape,
      endian,
    }));
    this.byName = new Map(layout.map((f) => [f.name, f]));
    this.itemSize = offset;
    this.lanes = offset;
    this.leaves = this.collectLeaves(0, undefined);
    this.endianSensitive = this.leaves.some(
      (leaf) => leaf.endian === undefined && leaf.dataType.endianSensitive,
    );
    this.name = `struct(${layout.map((f) => `${f.name}: ${f.dataType.name}${f.shape.length ? `[${f.shape}]` : ""}`).join(", ")})`;
    this.defaultFill = this.recordAt(new Uint8Array(offset), 0);
  }

  private collectLeaves(base: number, inherited: Endian | undefined): Leaf[] {
    const out: Leaf[] = [];
    for (const f of this.layout) {
      const endian = f.endian ?? inherited;
      if (isStruct(f.dataType)) {
        const nested = f.dataType;
        for (let k = 0; k < f.count; k++) {
          out.push(...nested.collectLeaves(base + f.offset + k * nested.itemSize, endian));
        }
      } else if (f.dataType.endianSensitive) {
        out.push({ offset: base + f.offset, dataType: f.dataType, count: f.count, endian });
      }
    }
    return out;
  }

  create(length: number): Uint8Array {
    return new Uint8Array(length * this.itemSize);
  }

  /**
   * The v3 `struct` form. v3 gives every field the byte order of the `bytes` codec, so a type
   * whose fields keep their own big-endian order (read from v2) has no v3 form: convert it with
   * {@link withoutFixedOrders} first.
   * @throws InvalidDataTypeError for fields with a fixed big-endian order
   */
  toV3(): JsonValue {
    if (this.leaves.some((leaf) => leaf.endian === "big")) {
      throw new InvalidDataTypeError(
        `${this.name} has fields with their own big-endian byte order, which v3 metadata cannot express ` +
          "(a v3 struct takes the bytes codec's order for every field); use withoutFixedOrders()",
      );
    }
    return {
      name: "struct",
      configuration: {
        fields: this.layout.map((f) => ({
          name: f.name,
          data_type:
            f.shape.length === 0
              ? f.dataType.toV3()
              : {
                  name: "subarray",
                  configuration: { subdtype: f.dataType.toV3(), shape: [...f.shape] },
                },
        })),
      },
    };
  }

  /** The v2 dtype list; fields with a fixed byte order keep it, the others take `endian`. */
  toV2(endian: Endian): JsonValue {
    return this.layout.map((f) => {
      const type = f.dataType.toV2(f.endian ?? endian);
      return f.shape.length === 0 ? [f.name, type] : [f.name, type, [...f.shape]];
    });
  }

  /** Converts the byte order of every multi-byte leaf field of `n` records, in place. */
  private convert(bytes: Uint8Array, n: number, codecEndian: Endian, toMemory: boolean): void {
    const record = this.itemSize;
    for (const leaf of this.leaves) {
      const from = leaf.endian ?? codecEndian;
      if (from === "little") continue;
      const size = leaf.count * leaf.dataType.itemSize;
      const column = new Uint8Array(n * size);
      for (let r = 0; r < n; r++)
        column.set(
          bytes.subarray(r * record + leaf.offset, r * record + leaf.offset + size),
          r * size,
        );
      const elements = leaf.count * n;
      const converted = toMemory
        ? leaf.dataType.encode(leaf.dataType.decode(column, elements, "big"), "little")
        : leaf.dataType.encode(leaf.dataType.decode(column, elements, "little"), "big");
      for (let r = 0; r < n; r++)
        bytes.set(converted.subarray(r * size, (r + 1) * size), r * record + leaf.offset);
    }
  }

  private needsConversion(codecEndian: Endian): boolean {
    return this.leaves.some((leaf) => (leaf.endian ?? codecEndian) === "big");
  }

  encode(data: Uint8Array, endian: Endian): Uint8Array {
    if (!this.needsConversion(endian)) return data;
    const out = data.slice();
    this.convert(out, out.length / this.itemSize, endian, false);
    return out;
  }

  decode(bytes: Uint8Array, length: number, endian: Endian): Uint8Array {
    const view = bytes.subarray(0, length * this.itemSize);
    if (!this.needsConversion(endian)) return view;
    const out = view.slice();
    this.convert(out, length, endian, true);
    return out;
  }

  /** Record `index` of packed little-endian record bytes, as an object. */
  private recordAt(data: Uint8Array, index: number): StructValue {
    const base = index * this.itemSize;
    const out: StructValue = {};
    for (const f of this.layout) {
      const bytes = data.slice(base + f.offset, base + f.offset + f.size);
      const container = fromMemory(f.dataType, bytes, f.count);
      const items = Array.from({ length: f.count }, (_, k) => f.dataType.getElement(container, k));
      out[f.name] = nest(items, f.shape);
    }
    return out;
  }

  /** Writes an already coerced record at `index`. */
  private writeRecord(data: Uint8Array, index: number, value: StructValue): void {
    const base = index * this.itemSize;
    for (const f of this.layout) {
      const container = f.dataType.create(f.count);
      const items = f.shape.length === 0 ? [value[f.name]] : flatten(value[f.name], f.shape.length);
      for (let k = 0; k < items.length; k++) f.dataType.setElement(container, k, items[k]);
      data.set(toMemory(f.dataType, container).subarray(0, f.size), base + f.offset);
    }
  }

  /** The packed little-endian bytes of one record. */
  recordBytes(value: StructValue): Uint8Array {
    const out = new Uint8Array(this.itemSize);
    this.writeRecord(out, 0, this.coerce(value));
    return out;
  }

  /**
   * v2: base64 of the record bytes (each field in its byte order; `0` and `null` mean zeros);
   * v3: an object with a fill value for every field (nested objects for nested records;
   * subarray fields take one value for all their elements, or nested arrays), or the older
   * base64 form.
   */
  parseFill(json: JsonValue, format: ZarrFormat): StructValue {
    if (format === 2 && (json === null || json === 0)) return this.defaultFill;
    if (typeof json === "string") {
      const bytes = base64ToBytes(json, `the fill value of ${this.name}`);
      if (bytes.length !== this.itemSize) {
        throw new FillValueError(
          `Invalid fill value for ${this.name}: ${bytes.length} bytes where a record has ${this.itemSize}`,
        );
      }
      return this.recordAt(this.decode(bytes, 1, "little"), 0);
    }
    if (format === 3 && isJsonObject(json)) return this.parseFillObject(json);
    throw new FillValueError(
      `Invalid fill value ${formatValue(json)} for ${this.name}: expected ` +
        (format === 2
          ? "a base64 string of the record bytes"
          : "an object with a fill value for each field"),
    );
  }

  private parseFillObject(json: { [key: string]: JsonValue }): StructValue {
    const out: StructValue = {};
    const unknown = Object.keys(json).filter((key) => !this.byName.has(key));
    if (unknown.length > 0)
      throw new FillValueError(
        `Fill value of ${this.name} has unknown field(s) ${unknown.join(", ")}`,
      );
    for (const f of this.layout) {
      if (!Object.hasOwn(json, f.name)) {
        throw new FillValueError(
          `Fill value of ${this.name} has no value for the field ${JSON.stringify(f.name)}`,
        );
      }
      out[f.name] = this.parseFieldFill(f, json[f.name]);
    }
    return out;
  }

  private parseFieldFill(f: Layout, json: JsonValue): unknown {
    if (f.shape.length === 0) return f.dataType.parseFill(json, 3);
    try {
      const one = f.dataType.parseFill(json, 3);
      return nest(new Array(f.count).fill(one), f.shape);
    } catch (error) {
      const items = flatten(json, f.shape.length);
      if (!Array.isArray(json) || items.length !== f.count) throw error;
      return nest(
        items.map((item) => f.dataType.parseFill(item as JsonValue, 3)),
        f.shape,
      );
    }
  }

  fillToJson(value: StructValue, format: ZarrFormat): JsonValue {
    if (format === 2) return bytesToBase64(this.encode(this.recordBytes(value), "little"));
    const out: { [key: string]: JsonValue } = {};
    const record = this.coerce(value);
    for (const f of this.layout) {
      const v = record[f.name];
      if (f.shape.length === 0) {
        out[f.name] = f.dataType.fillToJson(v, 3);
        continue;
      }
      const items = flatten(v, f.shape.length).map((item) => f.dataType.fillToJson(item, 3));
      const first = stringifyJson(items[0], 0);
      const uniform = items.every((item) => stringifyJson(item, 0) === first);
      out[f.name] = uniform ? items[0] : (nest(items, f.shape) as JsonValue);
    }
    return out;
  }

  /**
   * Accepts an object with a value for every field and no other keys (each field converted
   * by its type's `coerce`; subarray fields take nested arrays, a flat array or a TypedArray).
   * A missing or unknown field, or a field value its type refuses, is a
   * {@link ValueTypeError} that names the field.
   */
  coerce(value: unknown): StructValue {
    if (
      typeof value !== "object" ||
      value === null ||
      Array.isArray(value) ||
      ArrayBuffer.isView(value)
    ) {
      throw new ValueTypeError(value, this.name, "expected an object with its fields");
    }
    const record = value as StructValue;
    for (const key in record) {
      if (Object.hasOwn(record, key) && !this.byName.has(key)) {
        throw new ValueTypeError(value, this.name, `it has no field ${JSON.stringify(key)}`);
      }
    }
    const out: StructValue = {};
    for (const f of this.layout) {
      if (!(f.name in record)) {
        throw new ValueTypeError(
          value,
          this.name,
          `no value for the field ${JSON.stringify(f.name)}`,
        );
      }
      try {
        out[f.name] = this.coerceField(f, record[f.name]);
      } catch (error) {
        if (!(error instanceof ValueTypeError)) throw error;
        throw new ValueTypeError(
          value,
          this.name,
          `field ${JSON.stringify(f.name)}: ${valueDescription(error.value)} does not fit ${error.dataType}: ${error.reason}`,
        );
      }
    }
    return out;
  }

  private coerceField(f: Layout, v: unknown): unknown {
    if (f.shape.length === 0) return f.dataType.coerce(v);
    const items = ArrayBuffer.isView(v)
      ? Array.from(v as unknown as ArrayLike<unknown>)
      : flatten(v, f.shape.length);
    if (items.length !== f.count) {
      throw new ValueTypeError(
        v,
        f.dataType.name,
        `the field holds ${f.count} values (shape [${f.shape}]), got ${items.length}`,
      );
    }
    return nest(
      items.map((item) => f.dataType.coerce(item)),
      f.shape,
    );
  }

  /** Whether a value is one record (an object naming every field) rather than a block of them. */
  isScalar(value: unknown): boolean {
    if (
      typeof value !== "object" ||
      value === null ||
      Array.isArray(value) ||
      ArrayBuffer.isView(value)
    )
      return false;
    return this.layout.every((f) => f.name in (value as object));
  }

  fill(data: Uint8Array, value: StructValue, start = 0, end = data.length / this.itemSize): void {
    const bytes = this.recordBytes(value);
    for (let i = start; i < end; i++) data.set(bytes, i * this.itemSize);
  }

  isAllFill(data: Uint8Array, value: StructValue): boolean {
    const bytes = this.recordBytes(value);
    const size = this.itemSize;
    for (let i = 0; i < data.length; i++) if (data[i] !== bytes[i % size]) return false;
    return true;
  }

  getElement(data: Uint8Array, index: number): StructValue {
    return this.recordAt(data, index);
  }

  setElement(data: Uint8Array, index: number, value: StructValue): void {
    this.writeRecord(data, index, this.coerce(value));
  }

  /** `{field: value}` with each field in its type's JSON form (subarrays as nested arrays). */
  toJsonElement(value: StructValue): JsonValue {
    const out: { [key: string]: JsonValue } = {};
    for (const f of this.layout) {
      const items = flatten(value[f.name], f.shape.length).map((item) =>
        f.dataType.toJsonElement(item),
      );
      out[f.name] = nest(items, f.shape) as JsonValue;
    }
    return out;
  }

  /** The same fields without fixed byte orders: every field takes the `bytes` codec's (v3). */
  withoutFixedOrders(): StructType {
    return new StructType(
      this.fields.map((f) => ({
        name: f.name,
        dataType: isStruct(f.dataType) ? f.dataType.withoutFixedOrders() : f.dataType,
        shape: f.shape,
      })),
    );
  }

  /** The field named `name` (or a path of names into nested records). */
  field(name: string | readonly string[]): StructField & { offset: number } {
    const path = typeof name === "string" ? [name] : name;
    let type: StructType = this;
    let offset = 0;
    for (let i = 0; i < path.length; i++) {
      const f = type.byName.get(path[i]);
      if (!f) throw new RangeError(`${type.name} has no field ${formatValue(path[i])}`);
      offset += f.offset;
      if (i === path.length - 1) return { ...f, offset };
      if (!isStruct(f.dataType) || f.count !== 1)
        throw new RangeError(`Field ${formatValue(path[i])} is not a nested record`);
      type = f.dataType;
    }
    throw new RangeError("A field path needs at least one name");
  }

  /**
   * One field of every record, as the field type's own container (a copy): `count` x `n`
   * elements for a subarray field (each record's subarray in C order), a Uint8Array of nested
   * records (read with the nested type) for a record field.
   */
  column(data: Uint8Array, name: string | readonly string[]): Container {
    const f = this.field(name);
    const size = f.shape.reduce((a, b) => a * b, 1) * f.dataType.itemSize;
    const n = data.length / this.itemSize;
    const bytes = new Uint8Array(n * size);
    for (let r = 0; r < n; r++)
      bytes.set(
        data.subarray(r * this.itemSize + f.offset, r * this.itemSize + f.offset + size),
        r * size,
      );
    return fromMemory(f.dataType, bytes, bytes.length / f.dataType.itemSize);
  }

  /** Writes one field of every record from a container like {@link column} returns. */
  setColumn(data: Uint8Array, name: string | readonly string[], values: Container): void {
    const f = this.field(name);
    const size = f.shape.reduce((a, b) => a * b, 1) * f.dataType.itemSize;
    const n = data.length / this.itemSize;
    const bytes = toMemory(f.dataType, values);
    if (bytes.length !== n * size) {
      throw new RangeError(
        `Field ${JSON.stringify(f.name)} of ${n} records needs ${n * size} bytes, got ${bytes.length}`,
      );
    }
    for (let r = 0; r < n; r++)
      data.set(bytes.subarray(r * size, (r + 1) * size), r * this.itemSize + f.offset);
  }

  /** Every record as an object. */
  records(data: Uint8Array): StructValue[] {
    return Array.from({ length: data.length / this.itemSize }, (_, i) => this.recordAt(data, i));
  }
}

/**
 * A structured data type from its fields, e.g.
 * `structType([{name: "x", dataType: float32}, {name: "m", dataType: int32, shape: [2, 3]}])`.
 */
export function structType(fields: readonly StructFieldSpec[]): StructType {
  return new StructType(fields);
}

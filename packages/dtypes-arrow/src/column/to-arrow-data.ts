import type { Data, DataType } from "apache-arrow";
import type { ArrowField } from "../field/model.js";
import type { ArrowModule } from "../load-arrow.js";
import { intArrayClass } from "./build.js";
import type { ColumnNode } from "./node.js";

type ViewCtor = {
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): ArrayBufferView;
  BYTES_PER_ELEMENT: number;
};

function view(bytes: Uint8Array, ctor: ViewCtor): ArrayBufferView {
  return new ctor(bytes.buffer, bytes.byteOffset, bytes.byteLength / ctor.BYTES_PER_ELEMENT);
}

/** The TypedArray class apache-arrow keeps a fixed-width type's values in. */
function valuesClass(field: ArrowField): ViewCtor {
  const t = field.type;
  switch (t.name) {
    case "int":
      return intArrayClass(t) as unknown as ViewCtor;
    case "floatingpoint":
      return t.precision === "HALF"
        ? Uint16Array
        : t.precision === "SINGLE"
          ? Float32Array
          : Float64Array;
    case "date":
      return t.unit === "DAY" ? Int32Array : BigInt64Array;
    case "time":
      return t.bitWidth === 32 ? Int32Array : BigInt64Array;
    case "timestamp":
    case "duration":
      return BigInt64Array;
    case "interval":
      return Int32Array;
    case "decimal":
      return Uint32Array;
    default:
      return Uint8Array;
  }
}

/**
 * An apache-arrow Data of a laid-out column, sharing its buffers (no copy).
 * @param type the apache-arrow type of the field (from `toArrowType`)
 */
export function toArrowData(
  A: ArrowModule,
  type: DataType,
  field: ArrowField,
  node: ColumnNode,
): Data {
  const { length, nullCount } = node;
  const nullBitmap = node.buffers[0];
  const t = field.type;
  if (field.dictionary) {
    const dictionaryType = (type as unknown as { dictionary: DataType }).dictionary;
    const valueField = { ...field, dictionary: undefined };
    const values = toArrowData(A, dictionaryType, valueField, node.dictionary as ColumnNode);
    const indices = view(
      node.buffers[1],
      intArrayClass(field.dictionary.indexType) as unknown as ViewCtor,
    );
    return A.makeData({
      type,
      length,
      nullCount,
      nullBitmap,
      data: indices,
      dictionary: A.makeVector(values),
    } as never);
  }
  const child = (i: number) =>
    toArrowData(A, type.children[i].type, field.children[i], node.children[i]);
  let props: Record<string, unknown>;
  switch (t.name) {
    case "null":
      props = { length };
      break;
    case "bool":
      props = { length, nullCount, nullBitmap, data: node.buffers[1] };
      break;
    case "utf8":
    case "binary":
      props = {
        length,
        nullCount,
        nullBitmap,
        valueOffsets: view(node.buffers[1], Int32Array),
        data: node.buffers[2],
      };
      break;
    case "largeutf8":
    case "largebinary":
      props = {
        length,
        nullCount,
        nullBitmap,
        valueOffsets: view(node.buffers[1], BigInt64Array),
        data: node.buffers[2],
      };
      break;
    case "utf8view":
    case "binaryview":
      props = {
        length,
        nullCount,
        nullBitmap,
        views: node.buffers[1],
        variadicBuffers: node.buffers.slice(2),
      };
      break;
    case "list":
    case "map":
      props = {
        length,
        nullCount,
        nullBitmap,
        valueOffsets: view(node.buffers[1], Int32Array),
        child: child(0),
      };
      break;
    case "largelist":
      props = {
        length,
        nullCount,
        nullBitmap,
        valueOffsets: view(node.buffers[1], BigInt64Array),
        child: child(0),
      };
      break;
    case "fixedsizelist":
      props = { length, nullCount, nullBitmap, child: child(0) };
      break;
    case "struct":
      props = { length, nullCount, nullBitmap, children: field.children.map((_, i) => child(i)) };
      break;
    case "union":
      props = {
        length,
        nullCount: 0,
        typeIds: view(node.buffers[0], Int8Array),
        valueOffsets: t.mode === "DENSE" ? view(node.buffers[1], Int32Array) : undefined,
        children: field.children.map((_, i) => child(i)),
      };
      break;
    default:
      props = { length, nullCount, nullBitmap, data: view(node.buffers[1], valuesClass(field)) };
  }
  return A.makeData({ type, ...props } as never);
}

import type { DataType, Field } from "apache-arrow";
import { ArrowEncodeError } from "../errors.js";
import type { ArrowModule } from "../load-arrow.js";
import type { ArrowField, ArrowIntType, ArrowType } from "./model.js";

function intType(A: ArrowModule, t: ArrowIntType): DataType {
  return new A.Int(t.isSigned as never, t.bitWidth as never);
}

function valueType(A: ArrowModule, field: ArrowField): DataType {
  const t: ArrowType = field.type;
  const children = () => field.children.map((child) => toArrowField(A, child));
  switch (t.name) {
    case "null":
      return new A.Null();
    case "bool":
      return new A.Bool();
    case "int":
      return intType(A, t);
    case "floatingpoint":
      return new A.Float(A.Precision[t.precision] as never);
    case "utf8":
      return new A.Utf8();
    case "largeutf8":
      return new A.LargeUtf8();
    case "binary":
      return new A.Binary();
    case "largebinary":
      return new A.LargeBinary();
    case "utf8view":
      return new A.Utf8View();
    case "binaryview":
      return new A.BinaryView();
    case "runendencoded":
    case "listview":
    case "largelistview":
      // apache-arrow has neither type: chunks are written by our own IPC writer, and there is
      // no apache-arrow vector of such a field.
      throw new ArrowEncodeError(
        `The Arrow field ${JSON.stringify(field.name)} is ${t.name === "runendencoded" ? "run-end encoded" : `a ${t.name}`}, which apache-arrow has no vector type for; read and write its elements as plain values (get/set), or use ${t.name === "runendencoded" ? "the values' type" : "a list"} for apache-arrow vectors`,
      );
    case "fixedsizebinary":
      return new A.FixedSizeBinary(t.byteWidth);
    case "decimal":
      return new A.Decimal(t.scale, t.precision, t.bitWidth);
    case "date":
      return new A.Date_(A.DateUnit[t.unit] as never);
    case "time":
      return new A.Time(A.TimeUnit[t.unit] as never, t.bitWidth as never);
    case "timestamp":
      return new A.Timestamp(A.TimeUnit[t.unit] as never, t.timezone);
    case "duration":
      return new A.Duration(A.TimeUnit[t.unit] as never);
    case "interval":
      return new A.Interval(A.IntervalUnit[t.unit] as never);
    case "list":
      return new A.List(children()[0]);
    case "largelist":
      return new A.LargeList(children()[0]);
    case "fixedsizelist":
      return new A.FixedSizeList(t.listSize, children()[0]);
    case "struct":
      return new A.Struct(children());
    case "map": {
      const entries = children()[0];
      const type = new A.Map_(entries as never, t.keysSorted);
      // apache-arrow renames the entries, key and value fields; keep the names the field has.
      restoreNames(entries, field.children[0]);
      return type;
    }
    case "union":
      return t.mode === "SPARSE"
        ? new A.SparseUnion(t.typeIds, children())
        : new A.DenseUnion(t.typeIds, children());
  }
}

function restoreNames(arrowField: Field, field: ArrowField): void {
  (arrowField as { name: string }).name = field.name;
  field.children.forEach((child, i) => {
    restoreNames(arrowField.type.children[i], child);
  });
}

/** The apache-arrow type of a field (a Dictionary type for a dictionary-encoded field). */
export function toArrowType(A: ArrowModule, field: ArrowField): DataType {
  const type = valueType(A, field);
  if (!field.dictionary) return type;
  const { id, indexType, isOrdered } = field.dictionary;
  return new A.Dictionary(type, intType(A, indexType) as never, id, isOrdered);
}

/** The apache-arrow Field of a field: name, type, nullability and custom metadata. */
export function toArrowField(A: ArrowModule, field: ArrowField): Field {
  const metadata = new Map(
    (field.metadata ?? []).map(({ key, value }) => [key, value] as [string, string]),
  );
  return new A.Field(field.name, toArrowType(A, field), field.nullable, metadata);
}

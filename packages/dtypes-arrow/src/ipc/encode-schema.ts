import { BinaryView } from "apache-arrow/fb/binary-view";
import { LargeListView } from "apache-arrow/fb/large-list-view";
import { ListView } from "apache-arrow/fb/list-view";
import {
  Binary,
  Bool,
  Date as DateType,
  Decimal,
  DictionaryEncoding,
  Duration,
  Field,
  FixedSizeBinary,
  FixedSizeList,
  FloatingPoint,
  Int,
  Interval,
  KeyValue,
  LargeBinary,
  LargeList,
  LargeUtf8,
  List,
  Map as MapType,
  Null,
  RunEndEncoded,
  Struct_,
  Time,
  Timestamp,
  Type,
  Union,
  Utf8,
} from "apache-arrow/fb/Schema_generated";
import { Utf8View } from "apache-arrow/fb/utf8-view";
import type { Builder } from "flatbuffers";
import type { ArrowField, ArrowTimeUnit, ArrowType } from "../field/model.js";

const TIME_UNITS: readonly ArrowTimeUnit[] = ["SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"];
const PRECISIONS = ["HALF", "SINGLE", "DOUBLE"];
const INTERVAL_UNITS = ["YEAR_MONTH", "DAY_TIME", "MONTH_DAY_NANO"];

/** The Schema.fbs `Type` union tag and table of a type, built into `b`. */
function encodeType(b: Builder, t: ArrowType): [Type, number] {
  switch (t.name) {
    case "null":
      return [Type.Null, Null.createNull(b)];
    case "bool":
      return [Type.Bool, Bool.createBool(b)];
    case "int":
      return [Type.Int, Int.createInt(b, t.bitWidth, t.isSigned)];
    case "floatingpoint":
      return [
        Type.FloatingPoint,
        FloatingPoint.createFloatingPoint(b, PRECISIONS.indexOf(t.precision)),
      ];
    case "utf8":
      return [Type.Utf8, Utf8.createUtf8(b)];
    case "largeutf8":
      return [Type.LargeUtf8, LargeUtf8.createLargeUtf8(b)];
    case "binary":
      return [Type.Binary, Binary.createBinary(b)];
    case "largebinary":
      return [Type.LargeBinary, LargeBinary.createLargeBinary(b)];
    case "utf8view":
      return [Type.Utf8View, Utf8View.createUtf8View(b)];
    case "binaryview":
      return [Type.BinaryView, BinaryView.createBinaryView(b)];
    case "fixedsizebinary":
      return [Type.FixedSizeBinary, FixedSizeBinary.createFixedSizeBinary(b, t.byteWidth)];
    case "decimal":
      return [Type.Decimal, Decimal.createDecimal(b, t.precision, t.scale, t.bitWidth)];
    case "date":
      return [Type.Date, DateType.createDate(b, t.unit === "DAY" ? 0 : 1)];
    case "time":
      return [Type.Time, Time.createTime(b, TIME_UNITS.indexOf(t.unit), t.bitWidth)];
    case "timestamp": {
      const timezone = t.timezone === undefined ? 0 : b.createString(t.timezone);
      return [Type.Timestamp, Timestamp.createTimestamp(b, TIME_UNITS.indexOf(t.unit), timezone)];
    }
    case "duration":
      return [Type.Duration, Duration.createDuration(b, TIME_UNITS.indexOf(t.unit))];
    case "interval":
      return [Type.Interval, Interval.createInterval(b, INTERVAL_UNITS.indexOf(t.unit))];
    case "list":
      return [Type.List, List.createList(b)];
    case "largelist":
      return [Type.LargeList, LargeList.createLargeList(b)];
    case "listview":
      return [Type.ListView, ListView.createListView(b)];
    case "largelistview":
      return [Type.LargeListView, LargeListView.createLargeListView(b)];
    case "fixedsizelist":
      return [Type.FixedSizeList, FixedSizeList.createFixedSizeList(b, t.listSize)];
    case "struct":
      return [Type.Struct_, Struct_.createStruct_(b)];
    case "map":
      return [Type.Map, MapType.createMap(b, t.keysSorted)];
    case "union": {
      const typeIds = Union.createTypeIdsVector(b, t.typeIds);
      return [Type.Union, Union.createUnion(b, t.mode === "DENSE" ? 1 : 0, typeIds)];
    }
    case "runendencoded":
      return [Type.RunEndEncoded, RunEndEncoded.createRunEndEncoded(b)];
  }
}

/**
 * Builds a Field table (Schema.fbs) of a field in the JSON model into `b`: name, nullability,
 * type, dictionary encoding, children and custom metadata, so that the IPC reader's schema
 * parsing gives the field back.
 * @returns the table's offset in `b`
 */
export function encodeField(b: Builder, field: ArrowField): number {
  const name = b.createString(field.name);
  const children = Field.createChildrenVector(
    b,
    field.children.map((child) => encodeField(b, child)),
  );
  const [typeType, type] = encodeType(b, field.type);
  let dictionary = 0;
  if (field.dictionary) {
    const { id, indexType, isOrdered } = field.dictionary;
    const index = Int.createInt(b, indexType.bitWidth, indexType.isSigned);
    DictionaryEncoding.startDictionaryEncoding(b);
    DictionaryEncoding.addId(b, BigInt(id));
    DictionaryEncoding.addIndexType(b, index);
    DictionaryEncoding.addIsOrdered(b, isOrdered);
    dictionary = DictionaryEncoding.endDictionaryEncoding(b);
  }
  const metadata = field.metadata
    ? Field.createCustomMetadataVector(
        b,
        field.metadata.map(({ key, value }) =>
          KeyValue.createKeyValue(b, b.createString(key), b.createString(value)),
        ),
      )
    : 0;
  Field.startField(b);
  Field.addName(b, name);
  Field.addNullable(b, field.nullable);
  Field.addTypeType(b, typeType);
  Field.addType(b, type);
  if (dictionary) Field.addDictionary(b, dictionary);
  Field.addChildren(b, children);
  if (metadata) Field.addCustomMetadata(b, metadata);
  return Field.endField(b);
}

/** An Arrow time unit, spelled as the Arrow JSON integration format spells it. */
export type ArrowTimeUnit = "SECOND" | "MILLISECOND" | "MICROSECOND" | "NANOSECOND";

/** An Arrow integer type (also the index type of a dictionary). */
export interface ArrowIntType {
  /** Always "int". */
  name: "int";
  /** 8, 16, 32 or 64. */
  bitWidth: 8 | 16 | 32 | 64;
  /** Signed (true) or unsigned. */
  isSigned: boolean;
}

/**
 * The `type` member of an Arrow field in the JSON integration-test format (the types this
 * package supports): `name` says the family, the other members its parameters.
 */
export type ArrowType =
  | { name: "null" }
  | { name: "bool" }
  | ArrowIntType
  | { name: "floatingpoint"; precision: "HALF" | "SINGLE" | "DOUBLE" }
  | { name: "utf8" }
  | { name: "largeutf8" }
  | { name: "binary" }
  | { name: "largebinary" }
  | { name: "utf8view" }
  | { name: "binaryview" }
  | { name: "fixedsizebinary"; byteWidth: number }
  | { name: "decimal"; precision: number; scale: number; bitWidth: 32 | 64 | 128 | 256 }
  | { name: "date"; unit: "DAY" | "MILLISECOND" }
  | { name: "time"; unit: ArrowTimeUnit; bitWidth: 32 | 64 }
  | { name: "timestamp"; unit: ArrowTimeUnit; timezone?: string }
  | { name: "duration"; unit: ArrowTimeUnit }
  | { name: "interval"; unit: "YEAR_MONTH" | "DAY_TIME" | "MONTH_DAY_NANO" }
  | { name: "list" }
  | { name: "largelist" }
  | { name: "listview" }
  | { name: "largelistview" }
  | { name: "fixedsizelist"; listSize: number }
  | { name: "struct" }
  | { name: "map"; keysSorted: boolean }
  | { name: "union"; mode: "SPARSE" | "DENSE"; typeIds: number[] }
  | { name: "runendencoded" };

/** The name of an Arrow type family. */
export type ArrowTypeName = ArrowType["name"];

/** The Arrow type of a family, narrowed by its name. */
export type ArrowTypeOf<N extends ArrowTypeName> = Extract<ArrowType, { name: N }>;

/** How a field is dictionary-encoded: the dictionary's id, index type and ordering. */
export interface ArrowDictionaryEncoding {
  /** The dictionary id (unique within a schema). */
  id: number;
  /** The integer type of the indices. */
  indexType: ArrowIntType;
  /** Whether the order of the dictionary values is meaningful. */
  isOrdered: boolean;
}

/** One entry of Arrow custom metadata. */
export interface ArrowKeyValue {
  /** The key. */
  key: string;
  /** The value. */
  value: string;
}

/**
 * An Arrow field, as the JSON integration-test format describes it: its name, whether it may
 * hold nulls, its type, its children (one for lists, the members of a struct or union, the
 * entries struct of a map) and, for a dictionary-encoded field, the encoding (`type` is then the
 * type of the dictionary's values).
 */
export interface ArrowField {
  /** The field name. */
  name: string;
  /** Whether elements may be null. */
  nullable: boolean;
  /** The type (the value type for a dictionary-encoded field). */
  type: ArrowType;
  /** The child fields of nested types; empty for primitive types. */
  children: ArrowField[];
  /** Present when the field is dictionary-encoded. */
  dictionary?: ArrowDictionaryEncoding;
  /** Custom key-value metadata, when there is any. */
  metadata?: ArrowKeyValue[];
}

/** The type families whose elements are built from child fields. */
export const NESTED_TYPES: ReadonlySet<ArrowTypeName> = new Set([
  "list",
  "largelist",
  "listview",
  "largelistview",
  "fixedsizelist",
  "struct",
  "map",
  "union",
  "runendencoded",
]);

/** The byte size of one element of a fixed-width type, or undefined for other types. */
export function fixedWidthOf(type: ArrowType): number | undefined {
  switch (type.name) {
    case "int":
      return type.bitWidth / 8;
    case "floatingpoint":
      return type.precision === "HALF" ? 2 : type.precision === "SINGLE" ? 4 : 8;
    case "date":
      return type.unit === "DAY" ? 4 : 8;
    case "time":
      return type.bitWidth / 8;
    case "timestamp":
    case "duration":
      return 8;
    case "interval":
      return type.unit === "YEAR_MONTH" ? 4 : type.unit === "DAY_TIME" ? 8 : 16;
    case "decimal":
      return type.bitWidth / 8;
    case "fixedsizebinary":
      return type.byteWidth;
    default:
      return undefined;
  }
}

/** The field a dictionary's values have: the field without its dictionary encoding. */
export function dictionaryValueField(field: ArrowField): ArrowField {
  const { dictionary: _, ...rest } = field;
  return rest;
}

const UNIT_SUFFIX: Record<ArrowTimeUnit, string> = {
  SECOND: "s",
  MILLISECOND: "ms",
  MICROSECOND: "us",
  NANOSECOND: "ns",
};

/** A short readable form of a field's type for names and messages: `list<int32>`, `struct<a: utf8>`. */
export function describeArrowType(field: ArrowField): string {
  const t = field.type;
  const child = (i: number) => describeArrowType(field.children[i]);
  let text: string;
  switch (t.name) {
    case "int":
      text = `${t.isSigned ? "int" : "uint"}${t.bitWidth}`;
      break;
    case "floatingpoint":
      text = `float${t.precision === "HALF" ? 16 : t.precision === "SINGLE" ? 32 : 64}`;
      break;
    case "fixedsizebinary":
      text = `fixedsizebinary[${t.byteWidth}]`;
      break;
    case "decimal":
      text = `decimal${t.bitWidth}(${t.precision}, ${t.scale})`;
      break;
    case "date":
      text = t.unit === "DAY" ? "date32" : "date64";
      break;
    case "time":
      text = `time${t.bitWidth}[${UNIT_SUFFIX[t.unit]}]`;
      break;
    case "timestamp":
      text = `timestamp[${UNIT_SUFFIX[t.unit]}${t.timezone !== undefined ? `, ${t.timezone}` : ""}]`;
      break;
    case "duration":
      text = `duration[${UNIT_SUFFIX[t.unit]}]`;
      break;
    case "interval":
      text = `interval[${t.unit.toLowerCase()}]`;
      break;
    case "list":
    case "largelist":
    case "listview":
    case "largelistview":
      text = `${t.name}<${child(0)}>`;
      break;
    case "fixedsizelist":
      text = `fixedsizelist<${child(0)}>[${t.listSize}]`;
      break;
    case "struct":
      text = `struct<${field.children.map((c) => `${c.name}: ${describeArrowType(c)}`).join(", ")}>`;
      break;
    case "map": {
      const entries = field.children[0];
      text = `map<${describeArrowType(entries.children[0])}, ${describeArrowType(entries.children[1])}>`;
      break;
    }
    case "runendencoded":
      text = `run_end_encoded<${child(0)}, ${child(1)}>`;
      break;
    case "union":
      text = `${t.mode.toLowerCase()}_union<${field.children
        .map((c, i) => `${t.typeIds[i]}: ${describeArrowType(c)}`)
        .join(", ")}>`;
      break;
    default:
      text = t.name;
  }
  if (field.dictionary) {
    const index = field.dictionary.indexType;
    text = `dictionary<${index.isSigned ? "int" : "uint"}${index.bitWidth}, ${text}>`;
  }
  return text;
}

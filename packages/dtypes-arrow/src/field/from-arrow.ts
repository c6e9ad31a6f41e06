import type { DataType, Field } from "apache-arrow";
import { ArrowFieldError } from "../errors.js";
import type { ArrowField, ArrowTimeUnit, ArrowType } from "./model.js";
import { parseArrowField } from "./parse-json.js";
import { arrowFieldToJson } from "./to-json.js";

// apache-arrow's enum values (Type, TimeUnit, ...), read structurally so that describing a
// field does not need the module loaded.
const TIME_UNITS: ArrowTimeUnit[] = ["SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"];
const PRECISIONS = ["HALF", "SINGLE", "DOUBLE"] as const;
const INTERVAL_UNITS = ["YEAR_MONTH", "DAY_TIME", "MONTH_DAY_NANO"] as const;
const DICTIONARY = -1;

interface TypeLike {
  typeId: number;
  children?: FieldLike[];
  [key: string]: unknown;
}

interface FieldLike {
  name: string;
  nullable: boolean;
  type: TypeLike;
  metadata?: Map<string, string>;
}

function typeOf(t: TypeLike): ArrowType {
  switch (t.typeId) {
    case 1:
      return { name: "null" };
    case 2:
      return { name: "int", bitWidth: t.bitWidth as 8, isSigned: t.isSigned as boolean };
    case 3:
      return { name: "floatingpoint", precision: PRECISIONS[t.precision as number] };
    case 4:
      return { name: "binary" };
    case 5:
      return { name: "utf8" };
    case 6:
      return { name: "bool" };
    case 7:
      return {
        name: "decimal",
        precision: t.precision as number,
        scale: t.scale as number,
        bitWidth: t.bitWidth as 128,
      };
    case 8:
      return { name: "date", unit: t.unit === 0 ? "DAY" : "MILLISECOND" };
    case 9:
      return { name: "time", unit: TIME_UNITS[t.unit as number], bitWidth: t.bitWidth as 32 };
    case 10: {
      const unit = TIME_UNITS[t.unit as number];
      return typeof t.timezone === "string"
        ? { name: "timestamp", unit, timezone: t.timezone }
        : { name: "timestamp", unit };
    }
    case 11:
      return { name: "interval", unit: INTERVAL_UNITS[t.unit as number] };
    case 12:
      return { name: "list" };
    case 13:
      return { name: "struct" };
    case 14:
      return {
        name: "union",
        mode: t.mode === 1 ? "DENSE" : "SPARSE",
        typeIds: Array.from(t.typeIds as Int32Array),
      };
    case 15:
      return { name: "fixedsizebinary", byteWidth: t.byteWidth as number };
    case 16:
      return { name: "fixedsizelist", listSize: t.listSize as number };
    case 17:
      return { name: "map", keysSorted: Boolean(t.keysSorted) };
    case 18:
      return { name: "duration", unit: TIME_UNITS[t.unit as number] };
    case 19:
      return { name: "largebinary" };
    case 20:
      return { name: "largeutf8" };
    case 21:
      return { name: "largelist" };
    case 23:
      return { name: "binaryview" };
    case 24:
      return { name: "utf8view" };
  }
  throw new ArrowFieldError(
    `The apache-arrow type ${String(t)} (type id ${t.typeId}) is not supported`,
  );
}

function fieldOf(f: FieldLike): ArrowField {
  const dictionary = f.type.typeId === DICTIONARY;
  const type = (dictionary ? f.type.dictionary : f.type) as TypeLike;
  const field: ArrowField = {
    name: f.name,
    nullable: f.nullable,
    type: typeOf(type),
    children: (type.children ?? []).map(fieldOf),
  };
  if (dictionary) {
    const indices = f.type.indices as TypeLike;
    field.dictionary = {
      id: f.type.id as number,
      indexType: {
        name: "int",
        bitWidth: indices.bitWidth as 8,
        isSigned: indices.isSigned as boolean,
      },
      isOrdered: Boolean(f.type.isOrdered),
    };
  }
  if (f.metadata && f.metadata.size > 0)
    field.metadata = [...f.metadata].map(([key, value]) => ({ key, value }));
  return field;
}

/**
 * The field of an apache-arrow Field, or of a DataType with a name and nullability, in Arrow's
 * JSON model (validated).
 * @throws ArrowFieldError for types this package does not support (views, run-end encoding)
 */
export function arrowFieldFrom(source: Field | DataType, name = "", nullable = true): ArrowField {
  const like: FieldLike =
    "nullable" in source && "type" in source
      ? (source as unknown as FieldLike)
      : { name, nullable, type: source as unknown as TypeLike };
  return parseArrowField(arrowFieldToJson(fieldOf(like)), "field");
}

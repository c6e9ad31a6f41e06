import { locateError } from "@z/errors";
import { ArrowFieldError } from "../errors.js";
import type {
  ArrowField,
  ArrowIntType,
  ArrowKeyValue,
  ArrowTimeUnit,
  ArrowType,
} from "../field/model.js";
import { parseArrowField } from "../field/parse-json.js";
import { arrowFieldToJson } from "../field/to-json.js";
import type { FlatBuffer, Table } from "./flatbuffer.js";

const TIME_UNITS: readonly ArrowTimeUnit[] = ["SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"];
const PRECISIONS = ["HALF", "SINGLE", "DOUBLE"] as const;
const INTERVAL_UNITS = ["YEAR_MONTH", "DAY_TIME", "MONTH_DAY_NANO"] as const;

/** The names of Schema.fbs's `Type` union members, by their tag. */
const TYPE_TAGS = [
  "NONE",
  "null",
  "int",
  "floatingpoint",
  "binary",
  "utf8",
  "bool",
  "decimal",
  "date",
  "time",
  "timestamp",
  "interval",
  "list",
  "struct",
  "union",
  "fixedsizebinary",
  "fixedsizelist",
  "map",
  "duration",
  "largebinary",
  "largeutf8",
  "largelist",
  "runendencoded",
  "binaryview",
  "utf8view",
  "listview",
  "largelistview",
];

const MAX_DEPTH = 64;

function enumAt<T>(fb: FlatBuffer, values: readonly T[], index: number, what: string): T {
  if (index < 0 || index >= values.length) fb.fail(`${what} ${index} is not a known value`);
  return values[index];
}

function intType(table: Table | undefined): ArrowIntType {
  return {
    name: "int",
    bitWidth: (table?.i32(0) ?? 0) as ArrowIntType["bitWidth"],
    isSigned: table?.bool(1) ?? false,
  };
}

/** The type of a Field table, in the JSON model (not yet validated). */
function typeOf(fb: FlatBuffer, field: Table): ArrowType {
  const tag = field.u8(2);
  const name = TYPE_TAGS[tag];
  if (name === undefined || name === "NONE") fb.fail(`a field has type tag ${tag}`);
  const t = field.table(3);
  switch (name) {
    case "int":
      return intType(t);
    case "floatingpoint":
      return { name, precision: enumAt(fb, PRECISIONS, t?.i16(0) ?? 0, "precision") };
    case "decimal":
      return {
        name,
        precision: t?.i32(0) ?? 0,
        scale: t?.i32(1) ?? 0,
        bitWidth: (t?.i32(2, 128) ?? 128) as 128,
      };
    case "date":
      return { name, unit: t?.i16(0, 1) === 0 ? "DAY" : "MILLISECOND" };
    case "time":
      return {
        name,
        unit: enumAt(fb, TIME_UNITS, t?.i16(0, 1) ?? 1, "time unit"),
        bitWidth: (t?.i32(1, 32) ?? 32) as 32,
      };
    case "timestamp": {
      const unit = enumAt(fb, TIME_UNITS, t?.i16(0, 0) ?? 0, "time unit");
      const timezone = t?.string(1);
      return timezone === undefined ? { name, unit } : { name, unit, timezone };
    }
    case "duration":
      return { name, unit: enumAt(fb, TIME_UNITS, t?.i16(0, 1) ?? 1, "time unit") };
    case "interval":
      return { name, unit: enumAt(fb, INTERVAL_UNITS, t?.i16(0, 0) ?? 0, "interval unit") };
    case "fixedsizebinary":
      return { name, byteWidth: t?.i32(0) ?? 0 };
    case "fixedsizelist":
      return { name, listSize: t?.i32(0) ?? 0 };
    case "map":
      return { name, keysSorted: t?.bool(0) ?? false };
    case "union":
      return { name, mode: (t?.i16(0) ?? 0) === 1 ? "DENSE" : "SPARSE", typeIds: t?.ints(1) ?? [] };
    default:
      return { name } as ArrowType;
  }
}

function keyValues(table: Table, id: number): ArrowKeyValue[] | undefined {
  const entries = table
    .tables(id)
    .map((kv) => ({ key: kv.string(0) ?? "", value: kv.string(1) ?? "" }));
  return entries.length > 0 ? entries : undefined;
}

interface FieldBudget {
  left: number;
}

function fieldOf(fb: FlatBuffer, table: Table, depth: number, budget: FieldBudget): ArrowField {
  // A hostile message can point many vector entries at one table; count every visit.
  if (--budget.left < 0) fb.fail("more fields than the message has room for");
  if (depth > MAX_DEPTH) fb.fail(`fields nested deeper than ${MAX_DEPTH} levels`);
  let type = typeOf(fb, table);
  const children = table.tables(5).map((child) => fieldOf(fb, child, depth + 1, budget));
  // A union without type ids numbers its members 0, 1, 2, ...
  if (type.name === "union" && type.typeIds.length === 0 && children.length > 0) {
    type = { ...type, typeIds: children.map((_, i) => i) };
  }
  const field: ArrowField = {
    name: table.string(0) ?? "",
    nullable: table.bool(1),
    type,
    children,
  };
  const dictionary = table.table(4);
  if (dictionary) {
    const indexTable = dictionary.table(1);
    field.dictionary = {
      id: Number(dictionary.i64(0)),
      // Arrow writers may omit the index type: it is then int32.
      indexType: indexTable ? intType(indexTable) : { name: "int", bitWidth: 32, isSigned: true },
      isOrdered: dictionary.bool(2),
    };
  }
  const metadata = keyValues(table, 6);
  if (metadata) field.metadata = metadata;
  return field;
}

/**
 * The fields of a Schema message, in the JSON model, validated as the `arrow` data type
 * validates field JSON (so a schema with an unsupported type is refused here).
 * @throws DecodeError for corrupt metadata; ArrowFieldError for a type this package does not read
 */
export function schemaFields(fb: FlatBuffer, schema: Table): ArrowField[] {
  const budget = { left: Math.floor(fb.bytes.length / 4) };
  return schema.tables(1).map((table, i) => {
    const raw = fieldOf(fb, table, 0, budget);
    try {
      return parseArrowField(arrowFieldToJson(raw), `schema.fields[${i}]`);
    } catch (error) {
      if (!(error instanceof ArrowFieldError)) throw error;
      throw locateError(
        error,
        "The Arrow IPC stream's schema has a field this package cannot read",
      );
    }
  });
}

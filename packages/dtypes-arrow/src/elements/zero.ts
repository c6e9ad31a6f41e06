import type { ArrowField } from "../field/model.js";
import { formatDecimal } from "./decimal.js";

/**
 * The element a non-nullable field holds when nothing was written: zero, false, "", empty
 * bytes, an empty list, a struct of its members' defaults (null for nullable members), the first
 * member of a union. It is the fill value of a non-nullable array created without one.
 */
export function zeroElement(field: ArrowField): unknown {
  const t = field.type;
  const member = (child: ArrowField) => (child.nullable ? null : zeroElement(child));
  switch (t.name) {
    case "null":
      return null;
    case "bool":
      return false;
    case "int":
      return t.bitWidth === 64 ? 0n : 0;
    case "floatingpoint":
      return 0;
    case "utf8":
    case "largeutf8":
    case "utf8view":
      return "";
    case "binary":
    case "largebinary":
    case "binaryview":
      return new Uint8Array(0);
    case "runendencoded":
      return member(field.children[1]);
    case "fixedsizebinary":
      return new Uint8Array(t.byteWidth);
    case "decimal":
      return formatDecimal(0n, t.scale);
    case "date":
      return t.unit === "DAY" ? 0 : 0n;
    case "time":
      return t.bitWidth === 32 ? 0 : 0n;
    case "timestamp":
    case "duration":
      return 0n;
    case "interval":
      if (t.unit === "YEAR_MONTH") return 0;
      if (t.unit === "DAY_TIME") return { days: 0, milliseconds: 0 };
      return { months: 0, days: 0, nanoseconds: 0n };
    case "list":
    case "largelist":
    case "listview":
    case "largelistview":
    case "map":
      return [];
    case "fixedsizelist":
      return Array.from({ length: t.listSize }, () => member(field.children[0]));
    case "struct": {
      const out: Record<string, unknown> = {};
      for (const child of field.children) out[child.name] = member(child);
      return out;
    }
    case "union":
      if (field.children.length === 0) return null;
      return { typeId: t.typeIds[0], value: zeroElement(field.children[0]) };
  }
}

import type { JsonObject } from "@z/metadata";
import type { ArrowField, ArrowIntType, ArrowType } from "./model.js";

function intTypeToJson(type: ArrowIntType): JsonObject {
  return { name: "int", bitWidth: type.bitWidth, isSigned: type.isSigned };
}

/** The `type` member in Arrow's integration-test form, members in the order Arrow writes them. */
export function arrowTypeToJson(type: ArrowType): JsonObject {
  switch (type.name) {
    case "int":
      return intTypeToJson(type);
    case "floatingpoint":
      return { name: type.name, precision: type.precision };
    case "fixedsizebinary":
      return { name: type.name, byteWidth: type.byteWidth };
    case "decimal":
      return {
        name: type.name,
        scale: type.scale,
        precision: type.precision,
        bitWidth: type.bitWidth,
      };
    case "date":
    case "duration":
    case "interval":
      return { name: type.name, unit: type.unit };
    case "time":
      return { name: type.name, unit: type.unit, bitWidth: type.bitWidth };
    case "timestamp":
      return type.timezone === undefined
        ? { name: type.name, unit: type.unit }
        : { name: type.name, unit: type.unit, timezone: type.timezone };
    case "fixedsizelist":
      return { name: type.name, listSize: type.listSize };
    case "map":
      return { name: type.name, keysSorted: type.keysSorted };
    case "union":
      return { name: type.name, mode: type.mode, typeIds: [...type.typeIds] };
    default:
      return { name: type.name };
  }
}

/**
 * A field in Arrow's JSON integration-test form, exactly: `name`, `nullable`, `type`,
 * `children` (empty for primitive types), then `dictionary` for a dictionary-encoded field and
 * `metadata` when there is any. This is what the `arrow` data type writes in `zarr.json`.
 */
export function arrowFieldToJson(field: ArrowField): JsonObject {
  const json: JsonObject = {
    name: field.name,
    nullable: field.nullable,
    type: arrowTypeToJson(field.type),
    children: field.children.map(arrowFieldToJson),
  };
  if (field.dictionary) {
    json.dictionary = {
      id: field.dictionary.id,
      isOrdered: field.dictionary.isOrdered,
      indexType: intTypeToJson(field.dictionary.indexType),
    };
  }
  if (field.metadata && field.metadata.length > 0) {
    json.metadata = field.metadata.map(({ key, value }) => ({ key, value }));
  }
  return json;
}

import type { ArrowField } from "./model.js";
import { arrowTypeToJson } from "./to-json.js";

function metadataText(field: ArrowField): string {
  return JSON.stringify(field.metadata ?? []);
}

/**
 * The first difference between two fields, described for an error message, or undefined when
 * they agree. Dictionary ids are not compared: they are bookkeeping of one IPC stream, and two
 * writers number the same schema differently.
 * @param ignoreName skip the name of the outermost field (the arrow-ipc codec picks the column
 *   by its own `column_name`)
 */
export function fieldDifference(
  expected: ArrowField,
  actual: ArrowField,
  path = "field",
  ignoreName = false,
): string | undefined {
  if (!ignoreName && expected.name !== actual.name) {
    return `${path} is named ${JSON.stringify(actual.name)}, not ${JSON.stringify(expected.name)}`;
  }
  if (expected.nullable !== actual.nullable) {
    return `${path} is ${actual.nullable ? "nullable" : "not nullable"}; the metadata says it is ${expected.nullable ? "nullable" : "not"}`;
  }
  const e = JSON.stringify(arrowTypeToJson(expected.type));
  const a = JSON.stringify(arrowTypeToJson(actual.type));
  if (e !== a) return `${path} has type ${a}, not ${e}`;
  if (!expected.dictionary !== !actual.dictionary) {
    return `${path} is ${actual.dictionary ? "" : "not "}dictionary-encoded; the metadata says it is ${expected.dictionary ? "" : "not"}`;
  }
  if (expected.dictionary && actual.dictionary) {
    const ei = expected.dictionary.indexType;
    const ai = actual.dictionary.indexType;
    if (ei.bitWidth !== ai.bitWidth || ei.isSigned !== ai.isSigned) {
      return `${path} has dictionary indices of type ${ai.isSigned ? "int" : "uint"}${ai.bitWidth}, not ${ei.isSigned ? "int" : "uint"}${ei.bitWidth}`;
    }
    if (expected.dictionary.isOrdered !== actual.dictionary.isOrdered) {
      return `${path} has an ${actual.dictionary.isOrdered ? "ordered" : "unordered"} dictionary; the metadata says ${expected.dictionary.isOrdered ? "ordered" : "unordered"}`;
    }
  }
  if (metadataText(expected) !== metadataText(actual)) {
    return `${path} has custom metadata ${metadataText(actual)}, not ${metadataText(expected)}`;
  }
  if (expected.children.length !== actual.children.length) {
    return `${path} has ${actual.children.length} children, not ${expected.children.length}`;
  }
  for (let i = 0; i < expected.children.length; i++) {
    const found = fieldDifference(
      expected.children[i],
      actual.children[i],
      `${path}.children[${i}]`,
    );
    if (found) return found;
  }
  return undefined;
}

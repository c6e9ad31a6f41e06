import type { ArrowField } from "../field/model.js";

/**
 * One Arrow array in IPC layout: its length, null count, buffers in the order an IPC record
 * batch lists them for the field's type, and its child arrays. The builder also attaches the
 * values of a dictionary-encoded field (`dictionary`); the IPC reader finds them by id instead.
 *
 * Buffer layouts (Arrow columnar format, metadata V5):
 * - null: none
 * - bool and fixed-width types: validity, values
 * - utf8, binary (and large): validity, offsets, data
 * - utf8 view, binary view: validity, views (16 bytes each), then the variadic data buffers
 *   (how many: the record batch's `variadicBufferCounts`, one entry per view array)
 * - run-end encoded: none (children: run ends, values)
 * - list view, large list view: validity, offsets, sizes
 * - list, large list, map: validity, offsets
 * - fixed-size list, struct: validity
 * - sparse union: type ids; dense union: type ids, offsets
 * - dictionary-encoded: validity, indices
 *
 * A validity buffer is empty when the null count is 0.
 */
export interface ColumnNode {
  /** The number of elements. */
  length: number;
  /** How many elements are null. */
  nullCount: number;
  /** The buffers, in IPC order. */
  buffers: Uint8Array[];
  /** The child arrays (list items, struct members, union members, map entries). */
  children: ColumnNode[];
  /** The dictionary's values, for a dictionary-encoded field (builder side only). */
  dictionary?: ColumnNode;
}

/**
 * How many buffers an array of the field has in an IPC record batch.
 * @param unionValidity metadata before V5 gave unions a validity buffer too
 */
export function bufferCount(field: ArrowField, unionValidity = false): number {
  if (field.dictionary) return 2;
  switch (field.type.name) {
    case "null":
    case "runendencoded":
      return 0;
    case "listview":
    case "largelistview":
    case "utf8":
    case "largeutf8":
    case "binary":
    case "largebinary":
      return 3;
    case "list":
    case "largelist":
    case "map":
      return 2;
    case "fixedsizelist":
    case "struct":
      return 1;
    case "union":
      return (field.type.mode === "SPARSE" ? 1 : 2) + (unionValidity ? 1 : 0);
    default:
      return 2;
  }
}

/** The child fields an array of the field has nodes for in a record batch (none when dictionary-encoded). */
export function nodeChildren(field: ArrowField): ArrowField[] {
  return field.dictionary ? [] : field.children;
}

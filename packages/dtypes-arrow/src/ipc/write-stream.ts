import type { Vector } from "apache-arrow";
import { buildColumn } from "../column/build.js";
import { toArrowData } from "../column/to-arrow-data.js";
import type { ArrowField } from "../field/model.js";
import { toArrowField } from "../field/to-arrow.js";
import { type ArrowModule, importArrow } from "../load-arrow.js";

/** An apache-arrow vector of elements (in the form `coerceElement` returns) of a field. */
export function elementsToVector(
  A: ArrowModule,
  field: ArrowField,
  elements: ArrayLike<unknown>,
): Vector {
  const arrowField = toArrowField(A, field);
  return A.makeVector(toArrowData(A, arrowField.type, field, buildColumn(field, elements)));
}

/**
 * Writes elements as an Arrow IPC stream: a schema with one field, the dictionary batches of
 * dictionary-encoded fields, one record batch, the end-of-stream marker. apache-arrow writes
 * the stream, so any Arrow implementation reads it.
 */
export async function writeIpcStream(
  field: ArrowField,
  elements: ArrayLike<unknown>,
): Promise<Uint8Array> {
  const A = await importArrow();
  const arrowField = toArrowField(A, field);
  const column = toArrowData(A, arrowField.type, field, buildColumn(field, elements));
  const schema = new A.Schema([arrowField]);
  const rows = A.makeData({
    type: new A.Struct(schema.fields),
    length: elements.length,
    nullCount: 0,
    children: [column],
  });
  const batch = new A.RecordBatch(schema, rows);
  return A.tableToIPC(new A.Table([batch]), "stream");
}

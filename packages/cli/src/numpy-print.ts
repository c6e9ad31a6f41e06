import type { Chunk, DataType } from "@z/zarr";
import { formatElements } from "./numpy-format.js";

/** NumPy's print options: summarise above this many elements ... */
export const SUMMARY_THRESHOLD = 1000;
/** ... showing this many items at each end of a long axis ... */
export const EDGE_ITEMS = 3;
/** ... and wrap rows at this many characters. */
const LINE_WIDTH = 75;

/**
 * Prints an n-d result as NumPy's `str(array)` does: nested brackets, one row per line,
 * blank lines between blocks of 3-d and higher, rows wrapped at 75 characters. `summarised`
 * marks the axes that hold only their first and last {@link EDGE_ITEMS} items of a longer
 * axis; a `...` is printed between the two ends.
 */
export function formatNumpy(
  dataType: DataType,
  chunk: Chunk,
  summarised: readonly boolean[],
): string {
  const { shape, stride } = chunk;
  const n = shape.reduce((a, b) => a * b, 1);
  if (shape.length === 0) return formatElements(dataType, [dataType.getElement(chunk.data, 0)])[0];
  if (n === 0) return `${"[".repeat(shape.length)}${"]".repeat(shape.length)}`;
  const values: unknown[] = new Array(n);
  const index = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    let offset = 0;
    for (let axis = 0; axis < shape.length; axis++) offset += index[axis] * stride[axis];
    values[i] = dataType.getElement(chunk.data, offset);
    for (let axis = shape.length - 1; axis >= 0; axis--) {
      if (++index[axis] < shape[axis]) break;
      index[axis] = 0;
    }
  }
  const words = formatElements(dataType, values);
  const ndim = shape.length;
  const block = (axis: number, start: number): string => {
    const count = shape[axis];
    const size = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    const items: string[] = [];
    for (let i = 0; i < count; i++) {
      if (summarised[axis] && i === EDGE_ITEMS) items.push("...");
      items.push(axis === ndim - 1 ? words[start + i] : block(axis + 1, start + i * size));
    }
    if (axis === ndim - 1) return `[${wrap(items, axis + 1)}]`;
    return `[${items.join(`${"\n".repeat(ndim - axis - 1)}${" ".repeat(axis + 1)}`)}]`;
  };
  return block(0, 0);
}

/**
 * Joins a row's words with spaces, starting a new line (indented) when a word would pass the
 * width, as NumPy does: the line so far with its trailing separator plus the word must fit
 * in 75 characters, the last word with the closing bracket too.
 */
function wrap(words: readonly string[], indent: number): string {
  const lines: string[] = [];
  let line = "";
  for (const [i, word] of words.entries()) {
    const width = i === words.length - 1 ? LINE_WIDTH - 1 : LINE_WIDTH;
    if (line !== "" && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(indent)}`);
}

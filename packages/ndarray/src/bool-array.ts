/**
 * The container of `bool` arrays: a Uint8Array of 0s and 1s, so every TypedArray operation
 * (and every copy kernel) works on it unchanged, with boolean accessors on top.
 *
 * ```ts
 * const mask = BoolArray.from([true, false]);
 * mask.get(0); // true
 * mask[1];     // 0
 * ```
 */
export class BoolArray extends Uint8Array {
  /** Element `i` as a boolean. */
  get(index: number): boolean {
    return this[index] !== 0;
  }
  /** Sets element `i` from a boolean (or anything truthy). */
  setBool(index: number, value: boolean): void {
    this[index] = value ? 1 : 0;
  }
  /** The elements as a plain array of booleans. */
  toBooleans(): boolean[] {
    return Array.from(this, (v) => v !== 0);
  }
  /** A BoolArray holding the given booleans. */
  static fromBooleans(values: Iterable<boolean>): BoolArray {
    const items = [...values];
    const out = new BoolArray(items.length);
    for (let i = 0; i < items.length; i++) out[i] = items[i] ? 1 : 0;
    return out;
  }
}

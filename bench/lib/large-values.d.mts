/** The layout of the large arrays for a cube edge (see large-values.mjs). */
export function largeLayout(edge: number): { shape: number[]; chunks: number[]; inner: number[] };
export function largeValue(z: number, y: number, x: number): number;
export function fillLargeBox(out: Uint16Array, start: number[], size: number[]): Uint16Array;
export function checkLargeArray(
  result: { data: unknown; shape: number[]; stride?: number[] } | undefined,
  edge: number,
  label: string,
): void;

/** One comparable row of a run: our speed and the ratios ours/theirs, as text. */
export interface ComparableRow {
  key: string;
  ours: string;
  zarrita: string;
  python: string;
}
export function comparableRows(results: object): ComparableRow[];
export function formatSideBySide(runs: { label: string; results: object }[]): string;

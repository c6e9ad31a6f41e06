/** The folders of the large arrays of one edge, and the stored bytes of the v3 ones. */
export interface LargeArrays {
  zstd: string;
  sharded: string;
  zstdV2: string;
  storedBytes: { zstd: number; sharded: number };
}
export function ensureLargeArrays(
  root: string,
  edge: number,
  say?: (line: string) => void,
): Promise<LargeArrays>;

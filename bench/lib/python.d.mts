/** zarr-python 2 under /usr/bin/python3 (see python.mjs). */
export const PYTHON: string;
export function runPython(args: Record<string, unknown>): Promise<Record<string, unknown>>;
export function probePython(): Promise<{
  versions?: { zarr: string; numcodecs: string };
  missing?: string;
}>;

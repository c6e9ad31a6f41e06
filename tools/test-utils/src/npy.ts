import { readFileSync } from "node:fs";

/** A parsed `.npy` file: the NumPy dtype string, shape, order and the raw element bytes. */
export interface Npy {
  /** The NumPy `descr` (e.g. `<i4`, `|b1`), or its repr for structured dtypes. */
  descr: string;
  /** The shape. */
  shape: number[];
  /** Whether the data is in Fortran order. */
  fortranOrder: boolean;
  /** The element bytes as stored. */
  data: Uint8Array;
}

/** Reads a `.npy` file (format versions 1 to 3). */
export function readNpy(file: string): Npy {
  const bytes = new Uint8Array(readFileSync(file));
  const magic = String.fromCharCode(...bytes.subarray(1, 6));
  if (bytes[0] !== 0x93 || magic !== "NUMPY") throw new Error(`${file} is not a .npy file`);
  const major = bytes[6];
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const headerStart = major === 1 ? 10 : 12;
  const header = new TextDecoder().decode(bytes.subarray(headerStart, headerStart + headerLength));
  const descr = /'descr':\s*('([^']*)'|(\[.*\]))/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) throw new Error(`${file}: cannot parse header ${header}`);
  return {
    descr: descr[2] ?? descr[3],
    fortranOrder: fortran[1] === "True",
    shape: shape[1]
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "")
      .map(Number),
    data: bytes.subarray(headerStart + headerLength),
  };
}

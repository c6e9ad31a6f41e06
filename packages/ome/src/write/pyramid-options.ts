import type { ArrayOptions } from "@z/array";
import type { Axis, OmeWriteVersion } from "../metadata/model.js";
import type { DownsampleMethod } from "./downsample.js";
import type { OmeroInput } from "./omero-defaults.js";

/** Progress of {@link writePyramid}: chunks written of the level being written. */
export interface PyramidProgress {
  /** The level being written (0 is the copy of the source). */
  level: number;
  /** Its chunks written so far. */
  done: number;
  /** Its chunks. */
  total: number;
}

/** Options of {@link writePyramid}. */
export interface PyramidOptions {
  /**
   * How many levels, the source's copy included. Default: until the coarsest level's x and y
   * each fit in one chunk.
   */
  levels?: number;
  /** How each level comes from the one before (see `downsampleBlock`). Default `"mean"`. */
  downsample?: DownsampleMethod;
  /** By how much each level shrinks along the downsampled axes. Default 2. */
  factor?: number;
  /** The names of the axes that shrink. Default: x and y (z keeps its size, as in ome-zarr-py). */
  downsampleAxes?: readonly string[];
  /**
   * The chunk shape of every level. Default: the source's chunks for an array; for values,
   * 256 along x and y (less where the axis is shorter) and 1 along the others.
   */
  chunks?: readonly number[];
  /** `"0.4"` (Zarr v2 arrays, `/` keys) or `"0.5"` (Zarr v3, `dimension_names`). Default `"0.4"`. */
  version?: OmeWriteVersion;
  /**
   * The axes, in the source's dimension order: objects, or names (`"t"`, `"c"`, `"z"`, `"y"`,
   * `"x"` get their types). Default: the last dimensions of `t, c, z, y, x`.
   */
  axes?: readonly (Axis | string)[];
  /** The physical size of a level-0 pixel along each axis. Default: all ones. */
  scale?: readonly number[];
  /** The physical position of the first level-0 pixel along each axis. Default: all zeros. */
  translation?: readonly number[];
  /** The image's name (`multiscales[0].name`). */
  name?: string;
  /**
   * Write `omero` rendering settings: the channels' settings given, completed (see
   * `completeOmero`); `true` for all defaults.
   */
  omero?: OmeroInput | true;
  /** The group's path in the store (ignored for a group). Default the root. */
  path?: string;
  /** Replace what is at the path (default: refuse, with `ContainsGroupError` or `ContainsArrayError`). */
  overwrite?: boolean;
  /**
   * Further options of the level arrays (compressors, fill value...), as `createArray` takes
   * them.
   */
  arrayOptions?: Omit<ArrayOptions, "shape" | "dtype" | "chunks" | "zarrFormat" | "dimensionNames">;
  /** How many chunks are read, reduced and written at once (default 4): it bounds the memory. */
  concurrency?: number;
  /** Called after each chunk written. */
  onProgress?: (progress: PyramidProgress) => void;
  /** Abort the writing: it rejects with the `AbortError`, and no further chunk is written. */
  signal?: AbortSignal;
}

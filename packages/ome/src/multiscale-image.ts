import type { ZarrArray, ZarrGroup } from "@z/array";
import type {
  Axis,
  Multiscale,
  OmeMetadata,
  Omero,
  OmeroChannel,
  OmeVersion,
} from "./metadata/model.js";

/** One resolution level of an opened image. */
export interface MultiscaleLevel {
  /** Its position in the multiscale's `datasets` (0 is the finest). */
  index: number;
  /** The array's path relative to the image group. */
  path: string;
  /** The opened array. */
  array: ZarrArray;
  /** The array's shape, in the order of the axes. */
  shape: number[];
  /** The array's chunk shape (for a sharded array, its inner chunks). */
  chunks: number[];
  /** The physical size of one pixel along each axis (dataset and multiscale scales composed). */
  scale: number[];
  /** The physical position of the first pixel along each axis (composed as the scale). */
  translation: number[];
}

/** An OME-Zarr multiscale image, opened: what {@link openMultiscale} returns. */
export interface MultiscaleImage {
  /** The image group. */
  group: ZarrGroup;
  /** The metadata's version. */
  version: OmeVersion;
  /** The image's name, when the metadata gives one. */
  name?: string;
  /** The axes, in the arrays' dimension order. */
  axes: Axis[];
  /** The levels in the metadata's order (finest first). */
  levels: MultiscaleLevel[];
  /** The channels' rendering settings (`omero.channels`; empty when there are none). */
  channels: OmeroChannel[];
  /** The rendering settings, when given. */
  omero?: Omero;
  /** The multiscale that was opened. */
  multiscale: Multiscale;
  /** All the OME metadata of the group. */
  metadata: OmeMetadata;
}

import type { JsonObject } from "@z/metadata";

/** The OME-NGFF versions this package reads (0.4 and 0.5 fully; 0.1 to 0.3 as they defined). */
export type OmeVersion = "0.1" | "0.2" | "0.3" | "0.4" | "0.5";

/** The versions {@link writePyramid} writes. */
export type OmeWriteVersion = "0.4" | "0.5";

/** One axis of a multiscale image (`axes[i]`). */
export interface Axis {
  /** The axis name, unique in the image (`"x"`, `"y"`, `"z"`, `"c"`, `"t"`...). */
  name: string;
  /** `"space"`, `"time"`, `"channel"`, or another type; absent when the metadata gives none. */
  type?: string;
  /** The unit of the axis (`"micrometer"`, `"second"`...), when the metadata gives one. */
  unit?: string;
}

/** A coordinate transformation as the metadata states it. */
export type CoordinateTransformation =
  | { type: "scale"; scale: number[] }
  | { type: "translation"; translation: number[] };

/** One resolution level of a multiscale (`datasets[i]`). */
export interface MultiscaleDataset {
  /** The array's path relative to the image group. */
  path: string;
  /** The dataset's own transformations, as stated (empty before 0.4). */
  coordinateTransformations: CoordinateTransformation[];
  /**
   * The physical size of one pixel along each axis: the dataset's scale composed with the
   * multiscale's (all ones when the metadata states none).
   */
  scale: number[];
  /**
   * The physical position of the first pixel along each axis: the dataset's translation
   * composed with the multiscale's (`multiscaleScale * datasetTranslation + multiscaleTranslation`).
   */
  translation: number[];
}

/** One multiscale image (`multiscales[i]`). */
export interface Multiscale {
  /** The version it was written as. */
  version: OmeVersion;
  /** The image's name, when given. */
  name?: string;
  /** The downsampling method, when given (`"gaussian"`, `"mean"`...). */
  type?: string;
  /** The axes, in the arrays' dimension order. */
  axes: Axis[];
  /** The levels, finest first as the specification asks. */
  datasets: MultiscaleDataset[];
  /** The transformations applied to every level after its own, as stated. */
  coordinateTransformations: CoordinateTransformation[];
  /** Free-form metadata about the downsampling, when given. */
  metadata?: JsonObject;
}

/** The rendering window of a channel (`omero.channels[i].window`). */
export interface OmeroWindow {
  /** The smallest value of the data, when given. */
  min?: number;
  /** The largest value of the data, when given. */
  max?: number;
  /** The value shown as black. */
  start: number;
  /** The value shown at full colour. */
  end: number;
}

/** How a channel is shown (`omero.channels[i]`). */
export interface OmeroChannel {
  /** The channel's name. */
  label?: string;
  /** Its colour as six hexadecimal digits, `"00FF00"`. */
  color?: string;
  /** Its rendering window. */
  window?: OmeroWindow;
  /** Whether it is shown. */
  active?: boolean;
  /** Its coefficient. */
  coefficient?: number;
  /** Its transfer function family (`"linear"`...). */
  family?: string;
  /** Whether its colour map is inverted. */
  inverted?: boolean;
}

/** The rendering settings of an image (`omero`, transitional in the specification). */
export interface Omero {
  /** One entry per channel. */
  channels: OmeroChannel[];
  /** The default rendering. */
  rdefs?: {
    /** The time point shown first. */
    defaultT?: number;
    /** The plane shown first. */
    defaultZ?: number;
    /** `"color"` or `"greyscale"`. */
    model?: string;
  };
  /** The image's name in OMERO. */
  name?: string;
  /** The image's id in OMERO. */
  id?: number;
}

/** The colour of one label value (`image-label.colors[i]`). */
export interface LabelColor {
  /** The label value. */
  labelValue: number;
  /** Its colour: red, green, blue, alpha, each 0 to 255. */
  rgba?: [number, number, number, number];
}

/** The metadata of a label image (`image-label`). */
export interface ImageLabel {
  /** The colours of label values. */
  colors: LabelColor[];
  /** The image the labels annotate, relative to the label image (`"../../"`). */
  source?: string;
}

/** The OME metadata of one group: what `parseOmeMetadata` finds in its attributes. */
export interface OmeMetadata {
  /** The version of the metadata (0.5's `ome.version`; before, the first multiscale's). */
  version: OmeVersion;
  /** The multiscale images of the group (empty when it holds none, such as a `labels` group). */
  multiscales: Multiscale[];
  /** The rendering settings, when given. */
  omero?: Omero;
  /** The names of the label images, in a `labels` group. */
  labels?: string[];
  /** The label metadata, in a label image. */
  imageLabel?: ImageLabel;
}

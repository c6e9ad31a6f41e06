import { type ChunkCache, openArray, openGroup, ZarrGroup } from "@z/array";
import { joinKey, type StoreLike } from "@z/store-core";
import { OmeMetadataError, OmeOptionError } from "./errors.js";
import { parseOmeMetadata } from "./metadata/parse-ome.js";
import type { MultiscaleImage, MultiscaleLevel } from "./multiscale-image.js";

/** Where an image is: an opened group, a store, or a location (`"https://..."`, a folder). */
export type MultiscaleSource = ZarrGroup | StoreLike | string;

/** Options of {@link openMultiscale}. */
export interface OpenMultiscaleOptions {
  /** The image group's path in the store (ignored for a group). Default: the root. */
  path?: string;
  /** Which of the group's multiscales: its index or its name. Default: the first. */
  multiscale?: number | string;
  /** Abort the metadata reads. */
  signal?: AbortSignal;
  /**
   * A cache of decoded chunks the levels' arrays read through (see `ChunkCache`): a viewer's
   * tiles that come back on screen cost no request and no decoding. Default: none.
   */
  cache?: ChunkCache;
}

/**
 * Opens an OME-Zarr multiscale image (OME-NGFF 0.1 to 0.5, Zarr v2 or v3): reads the group's
 * metadata, then opens every level's array, checking each has one dimension per axis.
 *
 * @example
 * ```ts
 * const image = await openMultiscale("https://example.org/image.ome.zarr");
 * for (const level of image.levels) console.log(level.path, level.shape, level.scale);
 * console.log(image.axes.map((a) => a.name), image.channels.map((c) => c.label));
 * ```
 * @throws OmeMetadataError for metadata that breaks the specification (what and where);
 *   OmeOptionError when the multiscale asked for does not exist; NotFoundError when there is
 *   no group or a level's array is missing
 * @category OME-Zarr
 */
export async function openMultiscale(
  source: MultiscaleSource,
  options: OpenMultiscaleOptions = {},
): Promise<MultiscaleImage> {
  const { signal } = options;
  const group =
    source instanceof ZarrGroup ? source : await openGroup(source, { path: options.path, signal });
  const metadata = parseOmeMetadata(group.attrs, { path: group.path });
  const which = options.multiscale ?? 0;
  const index =
    typeof which === "number" ? which : metadata.multiscales.findIndex((m) => m.name === which);
  const multiscale = metadata.multiscales[index];
  if (multiscale === undefined) {
    const names = metadata.multiscales.map((m, i) => m.name ?? String(i));
    throw new OmeOptionError(
      "multiscale",
      `the group "/${group.path}" has no multiscale ${JSON.stringify(which)} (it has ${names.length === 0 ? "none" : JSON.stringify(names)})`,
    );
  }
  const where = metadata.version === "0.5" ? "ome.multiscales" : "multiscales";
  const levels = await Promise.all(
    multiscale.datasets.map(async (dataset, i): Promise<MultiscaleLevel> => {
      // The levels share the group's format: no probe for the other format's document.
      const array = await openArray(group.store, {
        path: joinKey(group.path, dataset.path),
        zarrFormat: group.zarrFormat,
        signal,
        cache: options.cache,
      });
      if (array.shape.length !== multiscale.axes.length)
        throw new OmeMetadataError(
          `${where}[${index}].datasets[${i}]`,
          `the array "${dataset.path}" has ${array.shape.length} dimensions, the axes ${multiscale.axes.length}`,
          { path: group.path },
        );
      return {
        index: i,
        path: dataset.path,
        array,
        shape: array.shape,
        chunks: array.chunks,
        scale: dataset.scale,
        translation: dataset.translation,
      };
    }),
  );
  const image: MultiscaleImage = {
    group,
    version: multiscale.version,
    axes: multiscale.axes,
    levels,
    channels: metadata.omero?.channels ?? [],
    multiscale,
    metadata,
  };
  if (multiscale.name !== undefined) image.name = multiscale.name;
  if (metadata.omero !== undefined) image.omero = metadata.omero;
  return image;
}

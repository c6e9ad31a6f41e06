import { openGroup } from "@z/array";
import { isZarrError } from "@z/errors";
import { joinKey } from "@z/store-core";
import { parseOmeMetadata } from "./metadata/parse-ome.js";
import type { MultiscaleImage } from "./multiscale-image.js";

/**
 * The names of an image's label images: the `labels` of its `labels` group, empty when it has
 * none. Each is a multiscale image of its own, opened with
 * `openMultiscale(image.group.store, { path: labelPath(image, name) })`.
 *
 * @example
 * ```ts
 * for (const name of await labelNames(image)) {
 *   const labels = await openMultiscale(image.group.store, { path: labelPath(image, name) });
 *   console.log(name, labels.metadata.imageLabel?.colors.length);
 * }
 * ```
 * @throws OmeMetadataError when the `labels` group's metadata breaks the specification
 * @category OME-Zarr
 */
export async function labelNames(
  image: MultiscaleImage,
  options: { signal?: AbortSignal } = {},
): Promise<string[]> {
  const path = joinKey(image.group.path, "labels");
  const group = await openGroup(image.group.store, { path, signal: options.signal }).catch(
    (e: unknown) => {
      if (isZarrError(e, "NotFoundError")) return undefined;
      throw e;
    },
  );
  if (group === undefined) return [];
  return parseOmeMetadata(group.attrs, { path }).labels ?? [];
}

/** The store path of the label image `name` of an image (`<image>/labels/<name>`). */
export function labelPath(image: MultiscaleImage, name: string): string {
  return joinKey(joinKey(image.group.path, "labels"), name);
}

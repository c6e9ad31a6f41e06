/**
 * OME-Zarr multiscale images (`@z/ome`) with everything the umbrella registers: every data type
 * and codec, and the http(s) and zip locations. See docs/ome-zarr.md.
 *
 * ```ts
 * import { openMultiscale, pickLevel, readTile } from "@z/zarr/ome";
 * const image = await openMultiscale("https://example.org/image.ome.zarr");
 * const level = pickLevel(image, { width: 1024, height: 768 });
 * const tile = await readTile(image, { level, x: 0, y: 0, width: 256, height: 256 });
 * ```
 * @packageDocumentation
 */
import "./extensions.js";

export * from "@z/ome";

import {
  createArray,
  createGroup,
  forEachConcurrent,
  type Group,
  type JsonObject,
  open,
  type Readable,
  slice,
  ZarrArray,
} from "@z/zarr";
import { UsageError } from "../errors.js";
import { completeLocation, openLocation } from "../location.js";
import type { Output } from "../output.js";
import { ProgressBar } from "../progress.js";
import { type CompressorChoice, copyCodecs } from "./copy-codecs.js";

/** Options of `zarr copy`. */
export interface CopyOptions {
  /** The node to copy (default the root); it lands at the same path in the destination. */
  path?: string;
  /** The destination format (default: the source's). */
  format?: 2 | 3;
  /** Replace the compressor. */
  compressor?: CompressorChoice;
  /** New chunk shape for arrays (only valid when copying one array, or arrays of that rank). */
  chunks?: number[];
  /** Replace what exists at the destination path (its whole subtree). */
  overwrite?: boolean;
  /** Chunks copied at once (default 4). */
  concurrency?: number;
}

/** xarray's v2 convention for dimension names, which v3 holds in `dimension_names`. */
const XARRAY_DIMS = "_ARRAY_DIMENSIONS";

function dimensionsFor(
  source: ZarrArray,
  format: 2 | 3,
): { attributes: JsonObject; dimensionNames?: (string | null)[] } {
  const attributes = source.attrs;
  if (format === 2) {
    if (source.dimensionNames && !(XARRAY_DIMS in attributes))
      attributes[XARRAY_DIMS] = source.dimensionNames;
    return { attributes };
  }
  const names = source.dimensionNames ?? (attributes[XARRAY_DIMS] as (string | null)[] | undefined);
  if (source.zarrFormat === 2 && Array.isArray(names) && names.length === source.ndim) {
    delete attributes[XARRAY_DIMS];
    return { attributes, dimensionNames: names };
  }
  return { attributes, dimensionNames: source.dimensionNames };
}

async function copyArray(
  output: Output,
  source: ZarrArray,
  target: Readable,
  options: CopyOptions,
): Promise<void> {
  const format = options.format ?? source.zarrFormat;
  if (options.chunks && options.chunks.length !== source.ndim) {
    throw new UsageError(
      `--chunks has ${options.chunks.length} extents; /${source.path} has ${source.ndim} dimensions`,
    );
  }
  const meta = source.metadata;
  const destination = await createArray(target as never, {
    path: source.path,
    shape: meta.shape,
    dtype: meta.dataType,
    chunks: options.chunks ?? meta.chunkGrid.chunkShape,
    fillValue: meta.fillValueJson === null && format === 2 ? null : meta.fillValue,
    codecs: copyCodecs(source, format, options.compressor),
    zarrFormat: format,
    overwrite: options.overwrite,
    ...dimensionsFor(source, format),
  });
  const chunks = destination.chunks;
  const grid = destination.metadata.chunkGrid.gridShape(destination.shape);
  const total = grid.reduce((a, b) => a * b, 1);
  const bar = new ProgressBar(output, `copy /${source.path}`);
  let done = 0;
  // One destination chunk at a time keeps memory bounded by a few chunks whatever the size.
  await forEachConcurrent(gridPoints(grid), options.concurrency ?? 4, async (coords) => {
    const selection = coords.map((c, axis) =>
      slice(c * chunks[axis], Math.min((c + 1) * chunks[axis], meta.shape[axis])),
    );
    const block = await source.get(selection);
    await destination.set(selection, block);
    bar.update(++done, total);
  });
  bar.finish();
}

function* gridPoints(grid: readonly number[]): Generator<number[]> {
  if (grid.some((n) => n === 0)) return;
  const index = new Array<number>(grid.length).fill(0);
  for (;;) {
    yield [...index];
    let axis = grid.length - 1;
    for (; axis >= 0; axis--) {
      if (++index[axis] < grid[axis]) break;
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}

async function copyNode(
  output: Output,
  node: ZarrArray | Group,
  target: Readable,
  options: CopyOptions,
): Promise<number> {
  if (node instanceof ZarrArray) {
    await copyArray(output, node, target, options);
    return 1;
  }
  const format = options.format ?? node.zarrFormat;
  await createGroup(target as never, {
    path: node.path,
    zarrFormat: format,
    attributes: node.attrs,
    overwrite: options.overwrite,
  });
  let copied = 1;
  for (const [, child] of await node.members())
    copied += await copyNode(output, child, target, options);
  return copied;
}

/**
 * `zarr copy <src> <dst>`: rewrites an array or a whole hierarchy (attributes included) into
 * another location, optionally converting the format, compressor and chunking.
 */
export async function copyCommand(
  output: Output,
  source: string,
  destination: string,
  options: CopyOptions,
): Promise<void> {
  const from = await openLocation(source);
  const to = await openLocation(destination, { create: true });
  const node = await open(from, { path: options.path });
  const count = await copyNode(output, node, to, options);
  await completeLocation(to);
  output.err(`copied ${count} node${count === 1 ? "" : "s"} from ${source} to ${destination}\n`);
}

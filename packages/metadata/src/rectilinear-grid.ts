import { formatValue } from "@z/errors";
import { type ChunkAxis, chunkShapeAt, ExplicitChunkAxis, RegularChunkAxis } from "./chunk-axis.js";
import type { ChunkGrid } from "./chunk-grid.js";
import { ChunkGridError, MetadataError } from "./errors.js";
import type { NamedConfig } from "./extension.js";
import type { JsonObject, JsonValue } from "./json.js";

/**
 * The edge lengths of one axis as `chunk_shapes` declares them: an integer step repeated
 * without end, or a list of integers and run-length pairs `[V, N]` (N chunks of length V).
 */
export type RectilinearAxisSpec = number | readonly (number | readonly number[])[];

/**
 * The `rectilinear` chunk grid (zarr-extensions `chunk-grids/rectilinear`): per axis, chunks
 * of listed edge lengths. Each chunk is stored at its own shape. The edge lengths of an axis
 * must add up to at least the array's length there; more is allowed, even several chunks more.
 */
export class RectilinearChunkGrid implements ChunkGrid {
  readonly name = "rectilinear";
  readonly axes: readonly ChunkAxis[];
  readonly chunkShape: readonly number[] | undefined;
  readonly maxChunkShape: readonly number[];

  /**
   * @param specs one entry per axis, as in `chunk_shapes`
   * @throws MetadataError naming `where` for an edge length or run that is not a positive integer
   */
  constructor(
    /** The edge lengths per axis, as `chunk_shapes` gives them. */
    readonly specs: readonly RectilinearAxisSpec[],
    where = "rectilinear chunk grid",
  ) {
    this.axes = specs.map((spec, axis) => parseAxis(spec, axis, where));
    this.maxChunkShape = this.axes.map((a) => a.maxSize);
    const steps = this.axes.map((a) => a.step);
    this.chunkShape = steps.every((s) => s !== undefined) ? (steps as number[]) : undefined;
    let elements = 1;
    for (const n of this.maxChunkShape) elements *= n;
    if (elements > Number.MAX_SAFE_INTEGER) {
      throw new MetadataError(
        `${where}: the largest chunk [${this.maxChunkShape}] holds more than 2^53 elements, too many to index exactly`,
      );
    }
  }

  gridShape(arrayShape: readonly number[]): number[] {
    return arrayShape.map((length, i) => this.axes[i].count(length));
  }

  chunkShapeAt(coords: readonly number[]): number[] {
    return chunkShapeAt(this.axes, coords);
  }

  checkArrayShape(arrayShape: readonly number[], where: string): void {
    arrayShape.forEach((length, axis) => {
      const extent = this.axes[axis].extent;
      if (length > extent) {
        throw new ChunkGridError(
          `${where}: the rectilinear chunk edge lengths of axis ${axis} add up to ${extent}, less than the array's length ${length} there`,
        );
      }
    });
  }

  /** The metadata JSON form: `chunk_shapes` as it was given (integers, lists and runs kept). */
  toJson(): JsonObject {
    const chunkShapes = this.specs.map((spec) =>
      typeof spec === "number"
        ? spec
        : spec.map((item) => (typeof item === "number" ? item : [...item])),
    ) as JsonValue[];
    return { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: chunkShapes } };
  }
}

function positive(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 1;
}

function parseAxis(spec: unknown, axis: number, where: string): ChunkAxis {
  const shown = () => formatValue(spec, { bigint: "suffix" });
  if (positive(spec)) return new RegularChunkAxis(spec);
  if (!Array.isArray(spec) || spec.length === 0) {
    throw new MetadataError(
      `${where}: chunk_shapes[${axis}] must be a positive integer or a non-empty list of edge lengths, got ${shown()}`,
    );
  }
  const runs: [number, number][] = [];
  let extent = 0;
  for (const [k, item] of spec.entries()) {
    let run: [number, number];
    if (positive(item)) run = [item, 1];
    else if (Array.isArray(item) && item.length === 2 && positive(item[0]) && positive(item[1]))
      run = [item[0], item[1]];
    else {
      throw new MetadataError(
        `${where}: chunk_shapes[${axis}][${k}] must be a positive integer edge length or a run [length, count] of positive integers, got ${formatValue(item, { bigint: "suffix" })}`,
      );
    }
    extent += run[0] * run[1];
    if (!Number.isSafeInteger(extent)) {
      throw new MetadataError(
        `${where}: the edge lengths of chunk_shapes[${axis}] add up to more than 2^53`,
      );
    }
    runs.push(run);
  }
  return new ExplicitChunkAxis(runs);
}

/** Builds a `rectilinear` grid from its metadata (the factory registered under its name). */
export function rectilinearGridFactory(
  config: NamedConfig,
  ndim: number,
  where: string,
): RectilinearChunkGrid {
  const here = `${where} chunk_grid`;
  const { kind, chunk_shapes: shapes } = config.configuration;
  if (kind !== "inline") {
    throw new MetadataError(
      `${here}: rectilinear grids of kind ${formatValue(kind)} are not supported; only "inline" is defined`,
    );
  }
  if (!Array.isArray(shapes) || shapes.length !== ndim) {
    throw new MetadataError(
      `${here}: chunk_shapes must list one entry per dimension (${ndim}), got ${formatValue(shapes)}`,
    );
  }
  return new RectilinearChunkGrid(shapes as RectilinearAxisSpec[], here);
}

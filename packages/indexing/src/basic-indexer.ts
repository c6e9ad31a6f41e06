import type { DataType } from "@z/metadata";
import type { Chunk, ChunkRegion, Container } from "@z/ndarray";
import { cOrderStrides, copyStrided } from "@z/ndarray";
import type { ChunkLayout } from "./chunk-layout.js";
import { projectionShape } from "./copy.js";
import { chunkView, copyChunkToOutput, fillRegion, outputView } from "./copy-chunk.js";
import type { ChunkPart, Indexer, WriteSource } from "./indexer.js";
import { type ChunkProjection, chunkProjections } from "./projection.js";
import { countChunkProjections, coversChunk } from "./projection-internal.js";
import {
  type AxisSelection,
  type BasicSelection,
  normalizeSelection,
  selectionShape,
} from "./selection.js";

/**
 * The indexer of a basic selection (integers, slices with any step, `null`, `"..."`): each
 * chunk part is a strided block, copied run by run.
 */
export class BasicIndexer implements Indexer {
  readonly shape: readonly number[];
  readonly strided = true;
  private readonly dims: AxisSelection[];
  private readonly outStride: number[];

  /** @throws BoundsError, SelectionError */
  constructor(
    selection: BasicSelection,
    arrayShape: readonly number[],
    private readonly layout: ChunkLayout,
  ) {
    this.dims = normalizeSelection(selection, arrayShape);
    this.shape = selectionShape(this.dims);
    this.outStride = cOrderStrides(this.shape);
  }

  *parts(): Iterable<ChunkPart> {
    for (const projection of chunkProjections(this.dims, this.layout)) {
      yield new BasicPart(projection, this.dims, this.outStride);
    }
  }

  partCount(): number {
    return countChunkProjections(this.dims, this.layout);
  }
}

class BasicPart implements ChunkPart {
  readonly coords: readonly number[];
  constructor(
    private readonly projection: ChunkProjection,
    private readonly dims: readonly AxisSelection[],
    private readonly outStride: readonly number[],
  ) {
    this.coords = projection.coords;
  }

  read(chunk: Chunk, out: Container, lanes: number): void {
    copyChunkToOutput(
      chunk,
      this.projection,
      outputView(out, this.outStride, this.dims, this.projection),
      lanes,
    );
  }

  fill(out: Container, dataType: DataType, value: unknown): void {
    const view = outputView(out, this.outStride, this.dims, this.projection);
    fillRegion(dataType, view, projectionShape(this.projection), value);
  }

  write(chunk: Chunk, source: WriteSource, dataType: DataType): void {
    const target = chunkView(chunk, this.projection);
    const region = projectionShape(this.projection);
    if ("scalar" in source) {
      fillRegion(dataType, target, region, source.scalar);
      return;
    }
    const value: Chunk = source.chunk;
    const from = outputView(value.data, value.stride, this.dims, this.projection);
    copyStrided(from, target, region, dataType.lanes);
  }

  covers(layout: ChunkLayout, arrayShape: readonly number[]): boolean {
    return coversChunk(this.projection, layout, arrayShape);
  }

  region(): ChunkRegion {
    const { axes } = this.projection;
    const { offset, stride } = outputView([], this.outStride, this.dims, this.projection);
    return {
      start: axes.map((a) => a.start),
      step: axes.map((a) => a.step),
      shape: projectionShape(this.projection),
      outOffset: offset,
      outStride: [...stride],
    };
  }

  inOrder(): boolean {
    return this.projection.axes.every((a) => a.start === 0 && (a.step === 1 || a.count === 1));
  }
}

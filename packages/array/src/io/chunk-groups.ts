import type { ChunkLayout, ChunkPart } from "@z/indexing";
import type { ChunkAxis } from "@z/metadata";

/** The parts of a selection that fall in one stored chunk. */
export interface ChunkGroup {
  /** The stored chunk's grid coordinates. */
  coords: number[];
  /** The parts, each with its sub-chunk's coordinates in the stored chunk's sub-chunk grid. */
  items: { part: ChunkPart; sub: number[] }[];
}

/**
 * Groups the parts of a selection by the stored chunk they fall in. Selections are projected
 * onto sub-chunks of shape `subchunkShape` (a sharded array's innermost chunks); without one,
 * every part is a whole stored chunk of its own, grouped as it comes (no part list is held).
 */
export function* groupParts(
  parts: Iterable<ChunkPart>,
  axes: readonly ChunkAxis[],
  subchunkShape: readonly number[] | undefined,
): Iterable<ChunkGroup> {
  if (subchunkShape === undefined) {
    for (const part of parts)
      yield { coords: [...part.coords], items: [{ part, sub: part.coords.map(() => 0) }] };
    return;
  }
  const groups = new Map<string, ChunkGroup>();
  for (const part of parts) {
    const coords = part.coords.map((c, axis) => axes[axis].chunkOf(c * subchunkShape[axis]));
    const id = coords.join(",");
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { coords, items: [] }));
    const sub = part.coords.map(
      (c, axis) => c - axes[axis].start(coords[axis]) / subchunkShape[axis],
    );
    group.items.push({ part, sub });
  }
  yield* groups.values();
}

/**
 * Whether the parts of a group cover every element of its stored chunk that lies inside the
 * array (its stored bytes are then not needed to write it). `layout` is what the parts were
 * projected onto: the sub-chunk shape, or the chunk layout for whole chunks.
 */
export function coversChunk(
  group: ChunkGroup,
  layout: ChunkLayout,
  subchunkShape: readonly number[] | undefined,
  chunkShape: readonly number[],
  axes: readonly ChunkAxis[],
  shape: readonly number[],
): boolean {
  if (subchunkShape === undefined) return group.items[0].part.covers(layout, shape);
  const covered = new Set(
    group.items.filter((i) => i.part.covers(layout, shape)).map((i) => i.sub.join()),
  );
  const counts = chunkShape.map((n, axis) => n / subchunkShape[axis]);
  const first = group.coords.map((c, axis) => axes[axis].start(c) / subchunkShape[axis]);
  // Walk the sub-chunk grid of the stored chunk, counting only sub-chunks inside the array.
  const sub = counts.map(() => 0);
  const total = counts.reduce((a, b) => a * b, 1);
  for (let n = 0; n < total; n++) {
    const inside = sub.every((c, axis) => (first[axis] + c) * subchunkShape[axis] < shape[axis]);
    if (inside && !covered.has(sub.join())) return false;
    for (let axis = sub.length - 1; axis >= 0; axis--) {
      if (++sub[axis] < counts[axis]) break;
      sub[axis] = 0;
    }
  }
  return true;
}

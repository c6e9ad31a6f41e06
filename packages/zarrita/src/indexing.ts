import {
  BasicIndexer,
  type BasicSelection,
  type SelectionItem,
  type Chunk as StackChunk,
  type Slice as StackSlice,
  type ZarrArray,
} from "@z/zarr";
import { type Chunk, fromZarritaData, type Scalar, toZarritaChunk } from "./containers.js";
import type { DataType } from "./data-types.js";
import { InvalidSelectionError, toZarritaError } from "./errors.js";
import { nodeOf, Array as ZarritaArray } from "./hierarchy.js";
import { nativeOrderOf, relayout } from "./native-order.js";
import { inSharedMemory } from "./shared-memory.js";

/** A slice as zarrita makes it: start, stop, step, each null for the default. */
export interface Slice {
  /** First index (negative counts from the end); null = the start. */
  start: number | null;
  /** Index to stop before; null = the end. */
  stop: number | null;
  /** Step; null = 1. */
  step: number | null;
}

/** One axis of a zarrita selection: everything (null), an index, or a slice. */
export type SliceItem = number | Slice | null;

/** A zarrita selection: one item per dimension, or null for everything. */
export type Selection = SliceItem[] | null | undefined;

function toInteger(value: number | bigint | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new InvalidSelectionError(`slice bound ${value} exceeds Number.MAX_SAFE_INTEGER`);
    }
    return Number(value);
  }
  return Math.floor(value);
}

/**
 * Makes a slice as Python's `slice()` does: `slice(stop)`, `slice(start, stop)`,
 * `slice(start, stop, step)`; null means the default.
 * @category Selections
 */
export function slice(
  start: number | bigint | null,
  stop?: number | bigint | null,
  step: number | bigint | null = null,
): Slice {
  if (stop === undefined) return { start: null, stop: toInteger(start), step: toInteger(step) };
  return { start: toInteger(start), stop: toInteger(stop), step: toInteger(step) };
}

/**
 * The selection for an array with `dimension_names`, from a selection by name: names not given
 * select everything.
 * @example
 * ```ts
 * await get(arr, select(arr, { time: 0, lat: slice(10, 20) }));
 * ```
 * @throws InvalidSelectionError when the array has no dimension names or a name is not one
 * @category Selections
 */
export function select(
  arr: { dimensionNames?: (string | null)[] },
  selection: Record<string, SliceItem>,
): SliceItem[] {
  const names = arr.dimensionNames;
  if (!names) {
    throw new InvalidSelectionError("Array does not have dimension_names in its metadata.");
  }
  for (const name of Object.keys(selection)) {
    if (!names.includes(name)) {
      const known = names.map((n) => JSON.stringify(n)).join(", ");
      throw new InvalidSelectionError(
        `Unknown dimension name: ${JSON.stringify(name)}. Available dimensions: ${known}`,
      );
    }
  }
  return names.map((name) => (name === null ? null : (selection[name] ?? null)));
}

/** A zarrita selection in the `@z` stack's terms. */
function stackSelection(selection: Selection): BasicSelection {
  if (selection === null || selection === undefined) return undefined;
  if (!globalThis.Array.isArray(selection)) {
    throw new InvalidSelectionError(
      `A selection is a list of items or null, got ${typeof selection}`,
    );
  }
  return selection.map((item): SelectionItem => {
    if (item === null || typeof item === "number") return item;
    if (typeof item === "object" && "stop" in item) {
      const s: StackSlice = { kind: "slice", start: item.start, stop: item.stop, step: item.step };
      return s;
    }
    throw new InvalidSelectionError(
      `Selection items are numbers, slices or null, got ${String(item)}`,
    );
  });
}

/** Options of `get` and `set`. */
export interface GetOptions {
  /** Abort the reads. */
  signal?: AbortSignal;
  /** Return a TypedArray over a SharedArrayBuffer. */
  useSharedArrayBuffer?: boolean;
  /** zarrita's older spelling of the options (`{opts: {signal}}`), still honoured. */
  opts?: { signal?: AbortSignal };
}

/** The signal of the options, merged with the one of the older `opts` spelling. */
function signalOf(options: GetOptions): AbortSignal | undefined {
  const signals = [options.signal, options.opts?.signal].filter((s) => s !== undefined);
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}

/** The element of a one-element zarrita container. */
function firstElement(data: unknown): unknown {
  const container = data as { get?: (i: number) => unknown } & ArrayLike<unknown>;
  return typeof container.get === "function" ? container.get(0) : container[0];
}

/**
 * Whether an array extension overrides `getChunk`: then `get` reads chunk by chunk through it
 * (so caches and tracers see every chunk), instead of letting the stack read.
 */
function readsThroughExtension(arr: ZarritaArray<DataType, unknown>): boolean {
  return arr.getChunk !== ZarritaArray.prototype.getChunk;
}

/** A selection read chunk by chunk through `arr.getChunk`, copied by the stack's indexer. */
async function readThroughChunks(
  arr: ZarritaArray<DataType, unknown>,
  node: ZarrArray,
  selection: BasicSelection,
  signal: AbortSignal | undefined,
): Promise<StackChunk> {
  const indexer = new BasicIndexer(selection, node.shape, arr.chunks);
  const size = indexer.shape.reduce((a, b) => a * b, 1);
  const out = node.dataType.create(size);
  await Promise.all(
    [...indexer.parts()].map(async (part) => {
      const chunk = await arr.getChunk([...part.coords], { signal });
      const data = fromZarritaData(node.dataType, chunk.data);
      part.read({ data, shape: chunk.shape, stride: chunk.stride }, out, node.dataType.lanes);
    }),
  );
  const shape = [...indexer.shape];
  const stride = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  return { data: out, shape, stride };
}

/**
 * Reads a selection: an n-d chunk (`{data, shape, stride}`, in the array's own order), or one
 * element when every axis is an index (and for 0-d arrays).
 * @example
 * ```ts
 * const { data, shape } = await get(arr, [slice(0, 10), null]);
 * const value = await get(arr, [3, 4]);
 * ```
 * @category Selections
 */
export async function get<D extends DataType, Sel extends Selection = Selection>(
  arr: ZarritaArray<D, unknown>,
  selection?: Sel,
  options: GetOptions = {},
): Promise<Sel extends number[] ? Scalar<D> : Chunk<D>> {
  type Result = Sel extends number[] ? Scalar<D> : Chunk<D>;
  const array = arr as ZarritaArray<DataType, unknown>;
  const node = await nodeOf(array);
  const signal = signalOf(options);
  try {
    signal?.throwIfAborted();
    const stackSel = stackSelection(selection);
    const shared = options.useSharedArrayBuffer === true;
    const chunk = readsThroughExtension(array)
      ? await readThroughChunks(array, node, stackSel, signal)
      : await node.get(stackSel, { signal, sharedMemory: shared });
    const ordered = relayout(chunk, nativeOrderOf(node), selection, arr.shape.length);
    const data = shared ? inSharedMemory(ordered.data) : ordered.data;
    const result = toZarritaChunk(arr.dtype, node.dataType, { ...ordered, data });
    return (chunk.shape.length === 0 ? firstElement(result.data) : result) as Result;
  } catch (err) {
    throw toZarritaError(err, arr.path);
  }
}

/**
 * Writes a selection: a scalar to every selected element, or a chunk of the selection's shape.
 * @example
 * ```ts
 * await set(arr, [slice(0, 2), null], 0);
 * await set(arr, null, { data: new Int32Array(6), shape: [2, 3], stride: [3, 1] });
 * ```
 * @category Selections
 */
export async function set<D extends DataType>(
  arr: ZarritaArray<D, unknown>,
  selection: Selection,
  value: Scalar<D> | Chunk<D>,
  options: GetOptions = {},
): Promise<void> {
  const node: ZarrArray = await nodeOf(arr as ZarritaArray<DataType, unknown>);
  try {
    const stackValue =
      typeof value === "object" && value !== null && "data" in value && "shape" in value
        ? {
            data: fromZarritaData(node.dataType, value.data),
            shape: value.shape,
            stride: value.stride,
          }
        : value;
    await node.set(stackSelection(selection), stackValue as never, { signal: signalOf(options) });
  } catch (err) {
    throw toZarritaError(err, arr.path);
  }
}

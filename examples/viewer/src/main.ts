// The viewer page: open a Zarr hierarchy by URL, browse it, and pan and zoom over a 2-D plane
// of an array (or of an OME-Zarr image, a level at a time) drawn through a colour map. Only the
// chunks on screen (and a margin) are read, tile by tile; chunks are decoded in a pool of Web
// Workers so the page stays responsive while tiles load.
import { createWorkerPool } from "@z/codecs/workers";
import { ChunkCache, isTypedArray, open, slice, type ZarrArray } from "@z/zarr";
import {
  axisRoles,
  type MultiscaleImage,
  openMultiscale,
  readTile as readImageTile,
} from "@z/zarr/ome";
import { COLORMAP_NAMES, colormapTable } from "./colormaps.js";
import { isGroup, type TreeNode, walkHierarchy } from "./hierarchy.js";
import { type Plane, planeRange, renderPlane } from "./render.js";
import { type Loaded, TileLoader } from "./tile-loader.js";
import {
  type LevelGrid,
  levelForScale,
  MARGIN,
  type Tile,
  tilesFor,
  type View,
  viewRect,
} from "./tiles.js";
import { clampView, levelThatFits, minScale, zoomAbout } from "./viewport.js";

const pool = createWorkerPool();
const params = new URLSearchParams(location.search);

/**
 * The decoded-chunk cache's size in MB (`?cache=64`; `?cache=0` turns it off, so every tile
 * that comes back on screen is read again). Every array opened from the hierarchy reads
 * through it: a tile that left the view and comes back costs no request and no decoding.
 */
const CACHE_MB = Number(params.get("cache") ?? 256);
const cache = CACHE_MB > 0 ? new ChunkCache({ maxBytes: CACHE_MB * 2 ** 20 }) : undefined;

/** A decoded tile: its values and, once drawn, its pixels under the look they were drawn in. */
interface TileValue {
  plane: Plane;
  /** The smallest and largest finite values (for automatic contrast). */
  range: [number, number];
  image?: HTMLCanvasElement;
  look?: string;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLSpanElement>("status");
const stage = $<HTMLDivElement>("stage");
const canvas = $<HTMLCanvasElement>("canvas");
const controls = $<HTMLDivElement>("controls");
const levelSelect = $<HTMLSelectElement>("level");
const colormapSelect = $<HTMLSelectElement>("colormap");
const loInput = $<HTMLInputElement>("lo");
const hiInput = $<HTMLInputElement>("hi");
const yAxisSelect = $<HTMLSelectElement>("y-axis");
const xAxisSelect = $<HTMLSelectElement>("x-axis");
const sliders = $<HTMLDivElement>("sliders");

/** What is on screen; the test reads it through `window.__viewer`. */
interface ViewState {
  url: string;
  /** The selected node's path (an array, or a multiscale image's group). */
  path: string;
  /** The level arrays' paths (one entry for a plain array). */
  levels: string[];
  /** The level drawn (the coarsest whose pixels are no larger than a screen pixel). */
  level: number;
  axes: string[];
  yAxis: number;
  xAxis: number;
  /** Indices of the axes that are not displayed, in full-resolution (level 0) elements. */
  indices: number[];
  colormap: string;
  lo: number;
  hi: number;
  /** Where the canvas looks, in full-resolution coordinates (see src/tiles.ts). */
  view: View;
  /** Screen pixels read around the view on every side. */
  margin: number;
  /** The drawn level's plane, [height, width]. */
  plane: [number, number];
  /** The drawn level's chunk shape along the displayed axes, [height, width]. */
  chunk: [number, number];
  /** Full-resolution pixels per pixel of the drawn level, [y, x]. */
  factor: [number, number];
  /** Tiles the view needs (view and margin), and how many of them are loaded. */
  tiles: { wanted: number; loaded: number };
  /** How tiles are read: `readTile` of @z/ome (an image's y-x planes), or the array's `get`. */
  reader: "readTile" | "get";
  /** Complete frames drawn so far (every tile the view needs was in). */
  renders: number;
  /** Tile reads under way, plus an opening under way. */
  pending: number;
  error?: string;
}

/** A level's array and how its plane maps onto full resolution along the displayed axes. */
interface Level {
  array: ZarrArray;
  grid: LevelGrid;
}

const state: ViewState = {
  url: "",
  path: "",
  levels: [],
  level: 0,
  axes: [],
  yAxis: 0,
  xAxis: 0,
  indices: [],
  colormap: "gray",
  lo: 0,
  hi: 1,
  view: { x: 0, y: 0, scale: 1, width: 1, height: 1 },
  margin: MARGIN,
  plane: [0, 0],
  chunk: [1, 1],
  factor: [1, 1],
  tiles: { wanted: 0, loaded: 0 },
  reader: "get",
  renders: 0,
  pending: 0,
};
let levelArrays: ZarrArray[] = [];
/** The OME-Zarr image shown, if it is one (its tiles are read with `readTile` of @z/ome). */
let omeImage: MultiscaleImage | undefined;
let levels: Level[] = [];
let autoContrast = true;
let opening = 0;
/** The tiles of the plane shown before the current one, drawn under it until it is complete. */
let backdrop: { items: Loaded<TileValue>[]; factor: [number, number] } | undefined;
/** The image and level factor of the plane the loader holds (what a backdrop is drawn with). */
let held: { source: string; factor: [number, number] } | undefined;
/** The plane the loader reads from now (set before each `want`, which starts the reads). */
let reading: ((tile: Tile, signal: AbortSignal) => Promise<TileValue>) | undefined;

const loader = new TileLoader<TileValue>(readTile, (error) => {
  if (error !== undefined) showError(error);
  scheduleFrame();
});

Object.assign(window, {
  __viewer: {
    state: () => structuredClone(state),
    pool: () => pool.stats(),
    /** Tile reads so far, and the cache's counts (null without a cache). */
    stats: () => ({ tiles: { ...loader.stats }, cache: cache?.stats() ?? null }),
    /** Sets the view's corner and scale at once (`{ x, y, scale }`, any of them). */
    show: (view: Partial<Pick<View, "x" | "y" | "scale">>) => setView({ ...state.view, ...view }),
    /** Puts full-resolution point (x, y) at the canvas's top-left corner. */
    panTo: (x: number, y: number) => setView({ ...state.view, x, y }),
    /** Moves the view by screen pixels. */
    panBy: (dx: number, dy: number) =>
      setView({
        ...state.view,
        x: state.view.x + dx / state.view.scale,
        y: state.view.y + dy / state.view.scale,
      }),
    /** Zooms about the view's centre: to a scale, or to `{ level }` drawn 1:1. */
    zoomTo: (to: number | { level: number }) => zoomTo(to),
    /** Resolves when every read for the view is done and its frame is drawn. */
    idle,
  },
});

for (const name of COLORMAP_NAMES) colormapSelect.add(new Option(name, name));

function setStatus(text: string, isError = false): void {
  status.textContent = text;
  status.style.color = isError ? "#b00" : "";
  if (isError) state.error = text;
}

/** Opens a hierarchy and selects `path`, or the first image or array in it. */
async function openUrl(url: string, path?: string): Promise<void> {
  setStatus(`Opening ${url} …`);
  state.url = url;
  state.error = undefined;
  opening++;
  syncPending();
  try {
    const root = await open(url, { cache });
    const tree = await walkHierarchy(root);
    drawTree(tree);
    const target = path !== undefined ? findNode(tree, path) : firstViewable(tree);
    if (!target) {
      setStatus(path ? `Nothing at "${path}"` : "No arrays in this hierarchy", path !== undefined);
      return;
    }
    await select(target);
  } finally {
    opening--;
    syncPending();
  }
}

function findNode(tree: TreeNode, path: string): TreeNode | undefined {
  if (tree.path === path.replace(/^\/+|\/+$/g, "")) return tree;
  for (const child of tree.children) {
    const found = findNode(child, path);
    if (found) return found;
  }
  return undefined;
}

function firstViewable(tree: TreeNode): TreeNode | undefined {
  if (tree.multiscales.length > 0 || !isGroup(tree.node)) return tree;
  for (const child of tree.children) {
    const found = firstViewable(child);
    if (found) return found;
  }
  return undefined;
}

function drawTree(tree: TreeNode): void {
  const nav = $<HTMLElement>("tree");
  nav.replaceChildren(treeList([tree]));
}

function treeList(nodes: TreeNode[]): HTMLUListElement {
  const list = document.createElement("ul");
  for (const entry of nodes) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    const name = entry.path.split("/").pop() || "/";
    const node = entry.node;
    button.textContent = isGroup(node)
      ? `▸ ${name}${entry.multiscales.length ? " (image)" : ""}`
      : `▦ ${name} ${node.dtype} [${node.shape.join(", ")}]`;
    button.dataset.path = entry.path;
    const viewable = !isGroup(node) || entry.multiscales.length > 0;
    button.disabled = !viewable;
    button.addEventListener("click", () => void select(entry).catch(showError));
    item.append(button);
    if (entry.note) {
      const note = document.createElement("div");
      note.className = "note";
      note.textContent = entry.note;
      item.append(note);
    }
    if (entry.children.length) item.append(treeList(entry.children));
    list.append(item);
  }
  return list;
}

/** Shows an array, or a multiscale image at the level that fits the stage. */
async function select(entry: TreeNode): Promise<void> {
  document.querySelectorAll<HTMLButtonElement>("#tree button").forEach((b) => {
    b.classList.toggle("selected", b.dataset.path === entry.path);
  });
  state.path = entry.path;
  let axes: string[] | undefined;
  let arrays: ZarrArray[];
  if (isGroup(entry.node)) {
    // The levels read through the same chunk cache as everything else the page opened.
    const image = await openMultiscale(entry.node, { cache });
    omeImage = image;
    arrays = image.levels.map((level) => level.array);
    state.levels = image.levels.map((level) => level.path);
    axes = image.axes.map((axis) => axis.name);
  } else {
    omeImage = undefined;
    arrays = [entry.node];
    state.levels = [entry.path];
  }
  const first = arrays[0];
  const ndim = first.shape.length;
  if (ndim < 2) throw new Error(`Cannot draw a ${ndim}-d array as an image`);
  levelArrays = arrays;
  state.axes =
    axes?.length === ndim
      ? axes
      : (first.dimensionNames?.map((n, i) => n ?? `axis ${i}`) ??
        first.shape.map((_, i) => `axis ${i}`));
  state.yAxis = ndim - 2;
  state.xAxis = ndim - 1;
  state.indices = first.shape.map((n) => Math.floor(n / 2));
  controls.hidden = false;
  autoContrast = true;
  buildLevels();
  buildControls();
  // Open at the finest level that fits the stage, drawn 1:1, from the top-left corner.
  const size = stageSize();
  const planes = levels.map((l) => l.grid.shape);
  const fits = levelThatFits(planes, size.width, size.height);
  const [fy, fx] = levels[fits].grid.factor;
  setView({ x: 0, y: 0, scale: 1 / Math.max(fy, fx), ...size });
}

/** The levels' grids along the displayed axes (again whenever the axes change). */
function buildLevels(): void {
  const full = levelArrays[0].shape;
  const { yAxis, xAxis } = state;
  levels = levelArrays.map((array) => ({
    array,
    grid: {
      shape: [array.shape[yAxis], array.shape[xAxis]],
      chunk: [array.chunks[yAxis], array.chunks[xAxis]],
      factor: [full[yAxis] / array.shape[yAxis], full[xAxis] / array.shape[xAxis]],
    },
  }));
}

function buildControls(): void {
  levelSelect.replaceChildren(
    ...levelArrays.map(
      (a, i) => new Option(`${state.levels[i]} [${a.shape.join(", ")}]`, String(i)),
    ),
  );
  levelSelect.value = String(state.level);
  for (const [select, axis] of [
    [yAxisSelect, state.yAxis],
    [xAxisSelect, state.xAxis],
  ] as const) {
    select.replaceChildren(...state.axes.map((name, i) => new Option(name, String(i))));
    select.value = String(axis);
  }
  buildSliders();
}

/** One slider per axis that is not displayed, over the full-resolution extent. */
function buildSliders(): void {
  const shape = levelArrays[0].shape;
  sliders.replaceChildren();
  shape.forEach((n, axis) => {
    if (axis === state.yAxis || axis === state.xAxis) return;
    state.indices[axis] = Math.min(state.indices[axis] ?? 0, n - 1);
    const label = document.createElement("label");
    const input = document.createElement("input");
    const output = document.createElement("output");
    input.type = "range";
    input.min = "0";
    input.max = String(n - 1);
    input.value = String(state.indices[axis]);
    input.dataset.axis = String(axis);
    input.setAttribute("aria-label", state.axes[axis]);
    output.textContent = input.value;
    input.addEventListener("input", () => {
      state.indices[axis] = Number(input.value);
      output.textContent = input.value;
      update();
    });
    label.append(`${state.axes[axis]} `, input, " ", output);
    sliders.append(label);
  });
}

function stageSize(): { width: number; height: number } {
  return { width: Math.max(1, stage.clientWidth), height: Math.max(1, stage.clientHeight) };
}

/** Moves or zooms the view (held on the image and within the zoom limits) and reads for it. */
function setView(next: View): void {
  if (levels.length === 0) return;
  const full = levels[0].grid.shape;
  const coarsest = Math.max(...levels[levels.length - 1].grid.factor);
  state.view = clampView(next, full, minScale(full, coarsest, next));
  update();
}

function zoomTo(to: number | { level: number }): void {
  const scale =
    typeof to === "number" ? to : 1 / Math.max(...(levels[to.level]?.grid.factor ?? [1]));
  setView(zoomAbout(state.view, scale));
}

/** The index of a level's element along an undisplayed axis (indices are full-resolution). */
function indexAt(array: ZarrArray, axis: number): number {
  const full = levelArrays[0].shape[axis];
  return Math.min(
    array.shape[axis] - 1,
    Math.floor((state.indices[axis] * array.shape[axis]) / full),
  );
}

/** Picks the level for the view, and wants the tiles the view and its margin touch. */
function update(): void {
  const factors = levels.map((l) => Math.max(...l.grid.factor));
  state.level = levelForScale(factors, state.view.scale);
  levelSelect.value = String(state.level);
  const { array, grid } = levels[state.level];
  state.plane = [...grid.shape];
  state.chunk = [...grid.chunk];
  state.factor = [...grid.factor];
  const { yAxis, xAxis } = state;
  const fixed = array.shape.map((_, axis) => indexAt(array, axis));
  const source = `${state.url}|${state.path}`;
  const plane = `${source}|${state.level}|${yAxis},${xAxis}|${fixed.join(",")}`;
  reading = tileReader(array, fixed);
  const tiles = tilesFor(grid, state.view, MARGIN);
  state.tiles.wanted = tiles.length;
  const previous = loader.want(plane, tiles);
  // Another level or slice of the same image shows under the new one while that loads.
  if (previous?.length && held?.source === source)
    backdrop = { items: previous, factor: held.factor };
  else if (previous) backdrop = undefined;
  held = { source, factor: grid.factor };
  syncPending();
  scheduleFrame();
}

/**
 * How the tiles of a level's plane are read: an OME-Zarr image's y-x planes with `readTile`
 * of @z/ome, anything else (a plain array, or other axes on screen) with `get`. Each tile is
 * one chunk, decoded in the worker pool; a chunk the cache holds costs neither request nor
 * decoding. `fixed` are the level's indices along the axes not on screen.
 */
function tileReader(
  array: ZarrArray,
  fixed: number[],
): (tile: Tile, signal: AbortSignal) => Promise<TileValue> {
  const { yAxis, xAxis } = state;
  const shown = omeImage;
  const roles = shown ? axisRoles(shown.axes) : undefined;
  state.reader = shown && roles?.y === yAxis && roles.x === xAxis ? "readTile" : "get";
  if (shown && state.reader === "readTile") {
    const level = shown.levels[state.level];
    const indices = Object.fromEntries(shown.axes.map((axis, d) => [axis.name, fixed[d]]));
    return async (tile, signal) => {
      const read = await readImageTile(shown, {
        level,
        x: tile.x0,
        y: tile.y0,
        width: tile.x1 - tile.x0,
        height: tile.y1 - tile.y0,
        indices,
        signal,
        workers: pool,
      });
      return tileValue(planeOf(array, read.data, read.shape, false));
    };
  }
  return async (tile, signal) => {
    const selection = array.shape.map((_, axis) =>
      axis === yAxis
        ? slice(tile.y0, tile.y1)
        : axis === xAxis
          ? slice(tile.x0, tile.x1)
          : fixed[axis],
    );
    const result = await array.get(selection, { workers: pool, signal });
    const [rows, cols] = yAxis < xAxis ? result.shape : [result.shape[1], result.shape[0]];
    return tileValue(planeOf(array, result.data, [rows, cols], yAxis > xAxis));
  };
}

function tileValue(plane: Plane): TileValue {
  return { plane, range: planeRange(plane) };
}

/** Reads one tile of the current plane. */
function readTile(_plane: string, tile: Tile, signal: AbortSignal): Promise<TileValue> {
  return (reading as NonNullable<typeof reading>)(tile, signal);
}

/**
 * A plane's values, whatever the element container (bigint, float16 and bool included):
 * `[height, width]` on screen, stored row by row or, `transposed`, column by column.
 */
function planeOf(
  array: ZarrArray,
  data: unknown,
  [height, width]: number[],
  transposed: boolean,
): Plane {
  const dataType = array.dataType;
  const fast =
    isTypedArray(data) &&
    !(data instanceof BigInt64Array || data instanceof BigUint64Array) &&
    dataType.lanes === 1 &&
    dataType.name !== "float16";
  const flat = data as ArrayLike<number>;
  const at = (i: number) =>
    fast ? flat[i] : Number(dataType.getElement(data as never, i) as number);
  return {
    height,
    width,
    value: (r, c) => at(transposed ? c * height + r : r * width + c),
  };
}

function syncPending(): void {
  state.pending = loader.pending + opening;
  state.tiles.loaded = loader.loaded.size;
}

let frameRequested = false;
let framesDrawn: (() => void)[] = [];

function scheduleFrame(): void {
  if (frameRequested) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    drawFrame();
    const waiting = framesDrawn;
    framesDrawn = [];
    for (const resolve of waiting) resolve();
  });
}

/** Resolves when every read for the view is done and the frame showing them is drawn. */
async function idle(): Promise<void> {
  for (;;) {
    await loader.idle();
    await new Promise<void>((resolve) => {
      framesDrawn.push(resolve);
      scheduleFrame();
    });
    if (loader.pending === 0 && opening === 0) return;
  }
}

/** Whether a tile of a level with `factor` shows inside a full-resolution rectangle. */
function onScreen(tile: Tile, factor: [number, number], rect: ReturnType<typeof viewRect>) {
  const [fy, fx] = factor;
  return (
    tile.y0 * fy < rect.y1 &&
    tile.y1 * fy > rect.y0 &&
    tile.x0 * fx < rect.x1 &&
    tile.x1 * fx > rect.x0
  );
}

/** Draws the loaded tiles where the view puts them; a complete frame counts as a render. */
function drawFrame(): void {
  syncPending();
  if (levels.length === 0) return;
  const { width, height } = stageSize();
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
    state.view = { ...state.view, width, height };
  }
  const view = state.view;
  const visible = viewRect(view);
  const factor = levels[state.level].grid.factor;
  const current = [...loader.loaded.values()];
  if (autoContrast) {
    const shown = current.filter((t) => onScreen(t.tile, factor, visible));
    if (shown.length > 0) {
      state.lo = Math.min(...shown.map((t) => t.value.range[0]));
      state.hi = Math.max(...shown.map((t) => t.value.range[1]));
      loInput.value = String(state.lo);
      hiInput.value = String(state.hi);
    }
  }
  state.colormap = colormapSelect.value || "gray";
  const look = `${state.colormap}|${state.lo}|${state.hi}`;
  const table = colormapTable(state.colormap);
  const context = canvas.getContext("2d") as CanvasRenderingContext2D;
  context.imageSmoothingEnabled = false;
  context.clearRect(0, 0, width, height);
  const paint = (items: Loaded<TileValue>[], [fy, fx]: [number, number]) => {
    for (const { tile, value } of items) {
      if (!onScreen(tile, [fy, fx], visible)) continue;
      if (value.look !== look || !value.image) {
        const image = value.image ?? document.createElement("canvas");
        image.width = value.plane.width;
        image.height = value.plane.height;
        const pixels = renderPlane(value.plane, table, state.lo, state.hi);
        (image.getContext("2d") as CanvasRenderingContext2D).putImageData(pixels, 0, 0);
        value.image = image;
        value.look = look;
      }
      const left = (tile.x0 * fx - view.x) * view.scale;
      const top = (tile.y0 * fy - view.y) * view.scale;
      const right = (tile.x1 * fx - view.x) * view.scale;
      const bottom = (tile.y1 * fy - view.y) * view.scale;
      context.drawImage(value.image, left, top, right - left, bottom - top);
    }
  };
  const complete = loader.pending === 0 && loader.loaded.size === state.tiles.wanted;
  if (backdrop && !complete) paint(backdrop.items, backdrop.factor);
  paint(current, factor);
  if (!complete) {
    setStatus(
      `Reading ${state.levels[state.level]}: ${loader.loaded.size} of ${state.tiles.wanted} tiles …`,
    );
    return;
  }
  backdrop = undefined;
  state.renders++;
  const array = levels[state.level].array;
  const at = array.shape
    .map((_, a) => (a === state.yAxis || a === state.xAxis ? ":" : indexAt(array, a)))
    .join(", ");
  const zoom = view.scale >= 1 ? `${+view.scale.toFixed(2)}×` : `1/${+(1 / view.scale).toFixed(2)}`;
  setStatus(
    `${state.path || "/"} level ${state.levels[state.level]} [${at}] ${array.dtype}, zoom ${zoom}, ${loader.loaded.size} tiles`,
  );
}

function showError(error: unknown): void {
  if ((error as Error)?.name === "AbortError") return;
  console.error(error);
  setStatus(String((error as Error)?.message ?? error), true);
}

// Drag to pan, wheel to zoom about the pointer.
let dragging: { x: number; y: number } | undefined;
canvas.addEventListener("pointerdown", (event) => {
  dragging = { x: event.clientX, y: event.clientY };
  canvas.setPointerCapture(event.pointerId);
});
canvas.addEventListener("pointermove", (event) => {
  if (!dragging) return;
  const { scale } = state.view;
  const dx = event.clientX - dragging.x;
  const dy = event.clientY - dragging.y;
  dragging = { x: event.clientX, y: event.clientY };
  setView({ ...state.view, x: state.view.x - dx / scale, y: state.view.y - dy / scale });
});
canvas.addEventListener("pointerup", () => {
  dragging = undefined;
});
canvas.addEventListener(
  "wheel",
  (event) => {
    event.preventDefault();
    const bounds = canvas.getBoundingClientRect();
    const scale = state.view.scale * Math.exp(-event.deltaY * 0.002);
    setView(zoomAbout(state.view, scale, event.clientX - bounds.left, event.clientY - bounds.top));
  },
  { passive: false },
);
new ResizeObserver(() => {
  if (levels.length > 0) setView({ ...state.view, ...stageSize() });
}).observe(stage);

levelSelect.addEventListener("change", () => zoomTo({ level: Number(levelSelect.value) }));
colormapSelect.addEventListener("change", () => scheduleFrame());
for (const input of [loInput, hiInput]) {
  input.addEventListener("change", () => {
    autoContrast = false;
    state.lo = Number(loInput.value);
    state.hi = Number(hiInput.value);
    scheduleFrame();
  });
}
$<HTMLButtonElement>("auto").addEventListener("click", () => {
  autoContrast = true;
  scheduleFrame();
});
for (const select of [yAxisSelect, xAxisSelect]) {
  select.addEventListener("change", () => {
    const y = Number(yAxisSelect.value);
    const x = Number(xAxisSelect.value);
    if (y === x) return setStatus("Pick two different axes", true);
    state.yAxis = y;
    state.xAxis = x;
    buildLevels();
    buildSliders();
    setView({ ...state.view, x: 0, y: 0 });
  });
}
$<HTMLFormElement>("open-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const url = $<HTMLInputElement>("url").value.trim();
  const next = new URL(location.href);
  next.searchParams.set("url", url);
  next.searchParams.delete("path");
  history.replaceState(null, "", next);
  void openUrl(url).catch(showError);
});

const initial = params.get("url");
if (initial) {
  // Relative URLs (`?url=data/image.zarr`) are read from this page's server.
  const absolute = new URL(initial, location.href).href;
  $<HTMLInputElement>("url").value = absolute;
  void openUrl(absolute, params.get("path") ?? undefined).catch(showError);
}

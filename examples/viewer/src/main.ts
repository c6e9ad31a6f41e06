// The viewer page: open a Zarr hierarchy by URL, browse it, and draw a 2-D plane of an array
// (or of an OME-Zarr image at the level that fits the screen) through a colour map. Chunks are
// decoded in a pool of Web Workers so the page stays responsive while large planes load.
import { createWorkerPool } from "@z/codecs/workers";
import { isTypedArray, open, slice, type ZarrArray } from "@z/zarr";
import { COLORMAP_NAMES, colormapTable } from "./colormaps.js";
import { isGroup, type TreeNode, walkHierarchy } from "./hierarchy.js";
import { levelThatFits } from "./ome.js";
import { type Plane, planeRange, renderPlane } from "./render.js";

const pool = createWorkerPool();

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = $<HTMLSpanElement>("status");
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
  level: number;
  axes: string[];
  yAxis: number;
  xAxis: number;
  /** Indices of the axes that are not displayed. */
  indices: number[];
  colormap: string;
  lo: number;
  hi: number;
  /** Every `step`-th row and column is drawn (1 unless even the level is too large). */
  step: number;
  /** The drawn plane's [height, width]. */
  plane: [number, number];
  /** Planes drawn so far. */
  renders: number;
  /** Draws under way (a newer one aborts an older one's reads). */
  pending: number;
  error?: string;
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
  step: 1,
  plane: [0, 0],
  renders: 0,
  pending: 0,
};
let levelArrays: ZarrArray[] = [];
let autoContrast = true;
let drawing: AbortController | undefined;

Object.assign(window, {
  __viewer: { state: () => structuredClone(state), pool: () => pool.stats() },
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
  const root = await open(url);
  const tree = await walkHierarchy(root);
  drawTree(tree);
  const target = path !== undefined ? findNode(tree, path) : firstViewable(tree);
  if (!target) {
    setStatus(path ? `Nothing at "${path}"` : "No arrays in this hierarchy", path !== undefined);
    return;
  }
  await select(target);
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
  if (isGroup(entry.node)) {
    const image = entry.multiscales[0];
    const group = entry.node;
    levelArrays = [];
    for (const level of image.levels) {
      const node = await group.get(level);
      if (isGroup(node)) throw new Error(`Level "${level}" of ${entry.path || "/"} is a group`);
      levelArrays.push(node);
    }
    state.levels = image.levels;
    axes = image.axes;
  } else {
    levelArrays = [entry.node];
    state.levels = [entry.path];
  }
  const first = levelArrays[0];
  const ndim = first.shape.length;
  if (ndim < 2) throw new Error(`Cannot draw a ${ndim}-d array as an image`);
  state.axes =
    axes?.length === ndim
      ? axes
      : (first.dimensionNames?.map((n, i) => n ?? `axis ${i}`) ??
        first.shape.map((_, i) => `axis ${i}`));
  state.yAxis = ndim - 2;
  state.xAxis = ndim - 1;
  const planes = levelArrays.map((a) => [a.shape[state.yAxis], a.shape[state.xAxis]]) as [
    number,
    number,
  ][];
  const stage = $<HTMLDivElement>("stage");
  controls.hidden = false;
  state.level = levelThatFits(planes, stage.clientWidth, stage.clientHeight);
  state.indices = first.shape.map((n) => Math.floor(n / 2));
  autoContrast = true;
  buildControls();
  await draw();
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

/** One slider per axis that is not displayed. */
function buildSliders(): void {
  const shape = levelArrays[state.level].shape;
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
      void draw().catch(showError);
    });
    label.append(`${state.axes[axis]} `, input, " ", output);
    sliders.append(label);
  });
}

/** A plane's values, whatever the element container (bigint, float16 and bool included). */
function planeOf(array: ZarrArray, data: unknown, shape: number[]): Plane {
  const [height, width] = state.yAxis < state.xAxis ? shape : [shape[1], shape[0]];
  const transposed = state.yAxis > state.xAxis;
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

/** Reads the plane on screen and draws it; a newer draw aborts an older one's reads. */
async function draw(): Promise<void> {
  state.pending++;
  try {
    await drawPlane();
  } finally {
    state.pending--;
  }
}

async function drawPlane(): Promise<void> {
  drawing?.abort();
  const controller = new AbortController();
  drawing = controller;
  const array = levelArrays[state.level];
  const shape = array.shape;
  const stage = $<HTMLDivElement>("stage");
  const [h, w] = [shape[state.yAxis], shape[state.xAxis]];
  state.step = Math.max(1, Math.ceil(Math.max(h / stage.clientHeight, w / stage.clientWidth)));
  const selection = shape.map((_, axis) =>
    axis === state.yAxis || axis === state.xAxis
      ? slice(null, null, state.step)
      : state.indices[axis],
  );
  setStatus(`Reading ${state.levels[state.level]} …`);
  const result = await array.get(selection, { workers: pool, signal: controller.signal });
  if (controller.signal.aborted) return;
  const plane = planeOf(array, result.data, result.shape);
  if (autoContrast) {
    [state.lo, state.hi] = planeRange(plane);
    loInput.value = String(state.lo);
    hiInput.value = String(state.hi);
  }
  state.colormap = colormapSelect.value || "gray";
  canvas.width = plane.width;
  canvas.height = plane.height;
  const context = canvas.getContext("2d") as CanvasRenderingContext2D;
  context.putImageData(renderPlane(plane, colormapTable(state.colormap), state.lo, state.hi), 0, 0);
  state.plane = [plane.height, plane.width];
  state.renders++;
  const at = shape
    .map((_, a) => (a === state.yAxis || a === state.xAxis ? ":" : state.indices[a]))
    .join(", ");
  const every = state.step > 1 ? `, every ${state.step}th pixel` : "";
  setStatus(
    `${state.path || "/"} level ${state.levels[state.level]} [${at}] ${array.dtype}${every}`,
  );
}

function showError(error: unknown): void {
  if ((error as Error)?.name === "AbortError") return;
  console.error(error);
  setStatus(String((error as Error)?.message ?? error), true);
}

levelSelect.addEventListener("change", () => {
  state.level = Number(levelSelect.value);
  buildSliders();
  void draw().catch(showError);
});
colormapSelect.addEventListener("change", () => void draw().catch(showError));
for (const input of [loInput, hiInput]) {
  input.addEventListener("change", () => {
    autoContrast = false;
    state.lo = Number(loInput.value);
    state.hi = Number(hiInput.value);
    void draw().catch(showError);
  });
}
$<HTMLButtonElement>("auto").addEventListener("click", () => {
  autoContrast = true;
  void draw().catch(showError);
});
for (const select of [yAxisSelect, xAxisSelect]) {
  select.addEventListener("change", () => {
    const y = Number(yAxisSelect.value);
    const x = Number(xAxisSelect.value);
    if (y === x) return setStatus("Pick two different axes", true);
    state.yAxis = y;
    state.xAxis = x;
    buildSliders();
    void draw().catch(showError);
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

const params = new URLSearchParams(location.search);
const initial = params.get("url");
if (initial) {
  // Relative URLs (`?url=data/image.zarr`) are read from this page's server.
  const absolute = new URL(initial, location.href).href;
  $<HTMLInputElement>("url").value = absolute;
  void openUrl(absolute, params.get("path") ?? undefined).catch(showError);
}

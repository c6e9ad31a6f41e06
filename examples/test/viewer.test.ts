// The viewer end to end: Vite builds it, a local server on 127.0.0.1 serves it with two
// OME-Zarr pyramids this test writes with our own library (0.5 in a sharded v3 hierarchy read
// without listing, 0.4 in a consolidated v2 one), and headless Chromium opens them. The canvas pixels
// must be the colour map applied to the data at the level that fits the screen.
import { copyFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromiumAvailable, launchChromium, tempDir } from "@z/test-utils";
import { consolidateMetadata, createArray, createGroup, FsStore } from "@z/zarr";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildViewer } from "../viewer/build.mjs";
import { colormapIndex, colormapTable } from "../viewer/src/colormaps.js";
import { startStaticServer } from "../viewer/static-server.mjs";

/** Where the screenshot goes (kept after the test for people to look at). */
export const SCREENSHOT = path.join(os.tmpdir(), "z-viewer-test", "viewer.png");

const LEVELS = [
  [3, 1200, 1600],
  [3, 600, 800],
  [3, 300, 400],
];
/** The gradient every level samples: level l holds f(z, y * 2^l, x * 2^l). */
const gradient = (z: number, y: number, x: number) => x + 2 * y + 5000 * z;

function levelData(level: number): Uint16Array {
  const [nz, ny, nx] = LEVELS[level];
  const scale = 2 ** level;
  const data = new Uint16Array(nz * ny * nx);
  for (let z = 0; z < nz; z++)
    for (let y = 0; y < ny; y++)
      for (let x = 0; x < nx; x++) data[(z * ny + y) * nx + x] = gradient(z, y * scale, x * scale);
  return data;
}

const axes = [
  { name: "z", type: "space" },
  { name: "y", type: "space" },
  { name: "x", type: "space" },
];
const datasets = LEVELS.map((_, l) => ({
  path: String(l),
  coordinateTransformations: [{ type: "scale", scale: [1, 2 ** l, 2 ** l] }],
}));

/** An OME-Zarr pyramid: 0.5 (v3, `ome` attribute) or 0.4 (v2, `multiscales` in .zattrs). */
async function writePyramid(folder: string, version: "0.4" | "0.5"): Promise<void> {
  const store = new FsStore(folder);
  const zarrFormat = version === "0.5" ? 3 : 2;
  const multiscales = [
    { name: "gradient", axes, datasets, ...(version === "0.4" ? { version } : {}) },
  ];
  await createGroup(store, {
    zarrFormat,
    attributes: version === "0.5" ? { ome: { version, multiscales } } : { multiscales },
  });
  for (let l = 0; l < LEVELS.length; l++) {
    const arr = await createArray(store, {
      path: String(l),
      shape: LEVELS[l],
      // v3 levels are sharded (read by ranges, inner chunks decoded in the pool); v2 chunked.
      ...(zarrFormat === 3 ? { shards: [1, 512, 512] } : {}),
      chunks: [1, 256, 256],
      dtype: "uint16",
      zarrFormat,
      compressors:
        zarrFormat === 3
          ? [{ name: "zstd", configuration: { level: 1 } }]
          : [{ id: "zlib", level: 1 } as never],
      dimensionNames: zarrFormat === 3 ? ["z", "y", "x"] : undefined,
    });
    await arr.set(null, { data: levelData(l), shape: LEVELS[l] });
  }
  if (version === "0.4") await consolidateMetadata(store);
}

interface ViewerState {
  levels: string[];
  yAxis: number;
  xAxis: number;
  level: number;
  indices: number[];
  plane: [number, number];
  view: { x: number; y: number; scale: number; width: number; height: number };
  lo: number;
  hi: number;
  colormap: string;
  renders: number;
  pending: number;
  reader: "readTile" | "get";
  error?: string;
}

const viewerState = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { __viewer: { state: () => unknown } }).__viewer.state(),
  ) as Promise<ViewerState>;

/**
 * Waits until the viewer has drawn more than `renders` planes and has no draw under way (or
 * reported an error): one UI change may start several draws (a blur fires `change` too).
 */
async function waitForRender(page: Page, renders: number): Promise<ViewerState> {
  await page.waitForFunction(
    (n) => {
      const v = (window as unknown as { __viewer?: { state: () => ViewerState } }).__viewer;
      const s = v?.state();
      return s !== undefined && ((s.renders > n && s.pending === 0) || s.error !== undefined);
    },
    renders,
    { timeout: 60_000 },
  );
  const state = await viewerState(page);
  expect(state.error).toBeUndefined();
  return state;
}

/**
 * Types contrast limits into the page and waits for the frame drawn with both (typing into one
 * field and leaving it draws a frame with the other's old value first).
 */
async function setContrast(page: Page, lo: number, hi: number): Promise<ViewerState> {
  await page.fill("#lo", String(lo));
  await page.fill("#hi", String(hi));
  await page.locator("#hi").dispatchEvent("change");
  await page.waitForFunction(
    ([l, h]) => {
      const s = (window as unknown as { __viewer: { state: () => ViewerState } }).__viewer.state();
      return s.lo === l && s.hi === h && s.pending === 0;
    },
    [lo, hi] as const,
  );
  // A frame drawn after the limits were set.
  await page.evaluate(() =>
    (window as unknown as { __viewer: { idle: () => Promise<void> } }).__viewer.idle(),
  );
  const state = await viewerState(page);
  expect(state.error).toBeUndefined();
  return state;
}

/**
 * Canvas pixels of one row or column of the drawn plane, as RGB triplets (the canvas fills the
 * stage; at the opening view the plane is drawn 1:1 from its top-left corner).
 */
async function canvasLine(
  page: Page,
  line: { row: number } | { col: number },
  plane: [number, number],
): Promise<number[]> {
  return page.evaluate(
    ([l, [height, width]]) => {
      const canvas = document.getElementById("canvas") as HTMLCanvasElement;
      const context = canvas.getContext("2d") as CanvasRenderingContext2D;
      const image =
        "row" in l
          ? context.getImageData(0, l.row, width, 1)
          : context.getImageData(l.col, 0, 1, height);
      const rgb: number[] = [];
      for (let i = 0; i < image.data.length; i += 4) rgb.push(...image.data.slice(i, i + 3));
      return rgb;
    },
    [line, plane] as const,
  );
}

/** What the colour map gives for the data along a row or column of a level's plane. */
function expectedLine(
  level: number,
  z: number,
  line: { row: number } | { col: number },
  colormap: string,
  lo: number,
  hi: number,
): number[] {
  const [, ny, nx] = LEVELS[level];
  const table = colormapTable(colormap);
  const scale = 2 ** level;
  const out: number[] = [];
  const n = "row" in line ? nx : ny;
  for (let i = 0; i < n; i++) {
    const [y, x] = "row" in line ? [line.row, i] : [i, line.col];
    const entry = 3 * colormapIndex(gradient(z, y * scale, x * scale), lo, hi);
    out.push(table[entry], table[entry + 1], table[entry + 2]);
  }
  return out;
}

describe.skipIf(!chromiumAvailable())("the viewer in Chromium", () => {
  const { dir, remove } = tempDir("z-viewer-");
  let server: { url: string; close: () => Promise<void> };
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    const data = path.join(dir, "data");
    mkdirSync(data, { recursive: true });
    await writePyramid(path.join(data, "ome05.zarr"), "0.5");
    await writePyramid(path.join(data, "ome04.zarr"), "0.4");
    const site = await buildViewer(path.join(dir, "site"));
    server = await startStaticServer({ mounts: { "/": site, "/data/": data } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (e) => errors.push(e.message));
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    remove();
  });

  it("opens an OME-Zarr 0.5 image at the level that fits and draws the data's colours", async () => {
    await page.goto(`${server.url}?url=data/ome05.zarr`);
    let state = await waitForRender(page, 0);
    // 1600 x 1200 does not fit the stage of a 1280 x 800 window; 800 x 600 does.
    expect(state.levels).toEqual(["0", "1", "2"]);
    expect(state.level).toBe(1);
    expect(state.plane).toEqual([600, 800]);
    expect(state.view.scale).toBe(0.5);
    // An OME-Zarr image's y-x planes are read with readTile of @z/ome.
    expect(state.reader).toBe("readTile");
    expect(state.indices[0]).toBe(1);
    // Automatic contrast: the plane's own range.
    expect([state.lo, state.hi]).toEqual([gradient(1, 0, 0), gradient(1, 1198, 1598)]);

    // viridis with contrast limits 6000..8000: some pixels clamp at each end.
    await page.selectOption("#colormap", "viridis");
    state = await waitForRender(page, state.renders);
    state = await setContrast(page, 6000, 8000);
    expect([state.colormap, state.lo, state.hi]).toEqual(["viridis", 6000, 8000]);
    for (const line of [{ row: 0 }, { row: 321 }, { row: 599 }, { col: 0 }, { col: 555 }]) {
      expect(await canvasLine(page, line, state.plane), JSON.stringify(line)).toEqual(
        expectedLine(1, 1, line, "viridis", 6000, 8000),
      );
    }

    // The z slider reads another plane.
    await page.locator('#sliders input[data-axis="0"]').fill("2");
    state = await waitForRender(page, state.renders);
    expect(state.indices[0]).toBe(2);
    state = await setContrast(page, 10000, 14000);
    for (const line of [{ row: 17 }, { col: 799 }])
      expect(await canvasLine(page, line, state.plane)).toEqual(
        expectedLine(1, 2, line, "viridis", 10000, 14000),
      );

    // The chunks were decoded in the worker pool.
    const pool = (await page.evaluate(() =>
      (window as unknown as { __viewer: { pool: () => unknown } }).__viewer.pool(),
    )) as { dispatched: number; workers: number };
    expect(pool.dispatched).toBeGreaterThan(0);
    expect(pool.workers).toBeGreaterThan(0);

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    if (process.env.Z_VIEWER_SCREENSHOT) copyFileSync(SCREENSHOT, process.env.Z_VIEWER_SCREENSHOT);
    expect(errors).toEqual([]);
  });

  it("shows other axes: y down and z across, each element a pixel at 1:1", async () => {
    // The page still shows the 0.5 image at z = 2; x across becomes z across (the plane is
    // stored column by column then), at x = 800 (the middle).
    let state = await viewerState(page);
    await page.selectOption("#colormap", "gray");
    state = await waitForRender(page, state.renders);
    await page.selectOption("#x-axis", "0");
    state = await waitForRender(page, state.renders);
    expect([state.yAxis, state.xAxis, state.reader]).toEqual([1, 0, "get"]);
    await page.evaluate(() =>
      (window as unknown as { __viewer: { show: (v: object) => void } }).__viewer.show({
        x: 0,
        y: 0,
        scale: 1,
      }),
    );
    await page.evaluate(() =>
      (window as unknown as { __viewer: { idle: () => Promise<void> } }).__viewer.idle(),
    );
    state = await setContrast(page, 0, 16000);
    expect([state.level, state.plane, state.indices[2]]).toEqual([0, [1200, 3], 800]);
    const rows = Math.min(state.view.height, 1200);
    const table = colormapTable("gray");
    for (const z of [0, 1, 2]) {
      const want = Array.from({ length: rows }, (_, r) => {
        const entry = 3 * colormapIndex(gradient(z, r, 800), 0, 16000);
        return [table[entry], table[entry + 1], table[entry + 2]];
      }).flat();
      expect(await canvasLine(page, { col: z }, [rows, 3]), `z = ${z}`).toEqual(want);
    }
    expect(errors).toEqual([]);
  });

  it("opens a consolidated v2 OME-Zarr 0.4 image and lists its hierarchy", async () => {
    await page.goto(`${server.url}?url=data/ome04.zarr`);
    const state = await waitForRender(page, 0);
    expect(state.level).toBe(1);
    expect(state.colormap).toBe("gray");
    const tree = await page.locator("#tree button").allTextContents();
    expect(tree).toEqual([
      "▸ / (image)",
      "▦ 0 uint16 [3, 1200, 1600]",
      "▦ 1 uint16 [3, 600, 800]",
      "▦ 2 uint16 [3, 300, 400]",
    ]);
    for (const line of [{ row: 0 }, { row: 450 }, { col: 123 }])
      expect(await canvasLine(page, line, state.plane)).toEqual(
        expectedLine(1, 1, line, "gray", state.lo, state.hi),
      );
    // Picking a level in the tree shows that array alone.
    await page.locator('#tree button[data-path="2"]').click();
    const level2 = await waitForRender(page, state.renders);
    expect(level2.plane).toEqual([300, 400]);
    expect(await canvasLine(page, { row: 99 }, level2.plane)).toEqual(
      expectedLine(2, 1, { row: 99 }, "gray", level2.lo, level2.hi),
    );
    expect(errors).toEqual([]);
  });
});

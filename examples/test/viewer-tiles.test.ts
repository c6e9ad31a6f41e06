// The viewer reads only what it shows. A four-level OME-Zarr pyramid with small chunks (many
// tiles per level) is served from 127.0.0.1 by a server that records every request; headless
// Chromium pans and zooms through the viewer's scripted API, and the server's log bounds what
// each step cost: nothing outside the view plus the margin, no chunk twice while the cache
// holds it, reads of tiles that left the view aborted. The same script without the cache shows
// what the cache saves. Counts and bytes per step are printed with `[viewer requests]`.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromiumAvailableOrWarn, launchChromium, tempDir } from "@z/test-utils";
import { createArray, createGroup, FsStore } from "@z/zarr";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildViewer } from "../viewer/build.mjs";
import { colormapIndex, colormapTable } from "../viewer/src/colormaps.js";
import { type ServedRecord, startStaticServer } from "../viewer/static-server.mjs";

/** Level 0 is [z, y, x]; each level halves y and x. Chunks are 1 x 128 x 128. */
const FULL = [2, 1536, 2048];
const LEVELS = 4;
const CHUNK = 128;
/** What the viewer documents as its margin (src/tiles.ts), in screen pixels. */
const MARGIN = 128;
/** The pyramid's values: noise, so chunks do not compress to nothing and bytes mean something. */
const value = (z: number, y: number, x: number) =>
  (Math.imul((x * 73856093) ^ (y * 19349663) ^ (z * 83492791), 2654435761) >>> 16) & 0xffff;

async function writePyramid(folder: string): Promise<void> {
  const store = new FsStore(folder);
  const axes = ["z", "y", "x"].map((name) => ({ name, type: "space" }));
  const datasets = Array.from({ length: LEVELS }, (_, l) => ({
    path: String(l),
    coordinateTransformations: [{ type: "scale", scale: [1, 2 ** l, 2 ** l] }],
  }));
  await createGroup(store, {
    zarrFormat: 3,
    attributes: { ome: { version: "0.5", multiscales: [{ name: "noise", axes, datasets }] } },
  });
  for (let l = 0; l < LEVELS; l++) {
    const shape = [FULL[0], FULL[1] >> l, FULL[2] >> l];
    const data = new Uint16Array(shape[0] * shape[1] * shape[2]);
    let i = 0;
    for (let z = 0; z < shape[0]; z++)
      for (let y = 0; y < shape[1]; y++)
        for (let x = 0; x < shape[2]; x++) data[i++] = value(z, y << l, x << l);
    const arr = await createArray(store, {
      path: String(l),
      shape,
      chunks: [1, CHUNK, CHUNK],
      dtype: "uint16",
      compressors: [{ name: "zstd", configuration: { level: 1 } }],
    });
    await arr.set(null, { data, shape });
  }
}

interface View {
  x: number;
  y: number;
  scale: number;
  width: number;
  height: number;
}
interface State {
  level: number;
  view: View;
  margin: number;
  renders: number;
  pending: number;
  indices: number[];
  lo: number;
  hi: number;
  error?: string;
}
interface Stats {
  tiles: { requested: number; loaded: number; aborted: number; failed: number; readMs: number };
  cache: { hits: number; misses: number; evictions: number; entries: number } | null;
}
type ViewerApi = {
  state(): State;
  stats(): Stats;
  show(view: Partial<View>): void;
  panTo(x: number, y: number): void;
  panBy(dx: number, dy: number): void;
  zoomTo(to: number | { level: number }): void;
  idle(): Promise<void>;
};

/** A chunk request: which level's chunk (z, row, col) the key names. */
interface ChunkRequest extends ServedRecord {
  level: number;
  z: number;
  row: number;
  col: number;
}

const CHUNK_PATH = /^\/data\/pyramid\.zarr\/(\d+)\/c\/(\d+)\/(\d+)\/(\d+)$/;

function chunkRequests(log: ServedRecord[]): ChunkRequest[] {
  return log.flatMap((r) => {
    const m = CHUNK_PATH.exec(r.path);
    if (!m || r.method !== "GET") return [];
    const [level, z, row, col] = m.slice(1).map(Number);
    return [{ ...r, level, z, row, col }];
  });
}

/** Whether a chunk lies (partly) inside a view grown by `margin` screen pixels per side. */
function chunkNearView(c: ChunkRequest, view: View, margin: number): boolean {
  const f = 2 ** c.level;
  const pad = margin / view.scale;
  const [y0, y1] = [c.row * CHUNK * f, (c.row + 1) * CHUNK * f];
  const [x0, x1] = [c.col * CHUNK * f, (c.col + 1) * CHUNK * f];
  return (
    y0 < view.y + view.height / view.scale + pad &&
    y1 > view.y - pad &&
    x0 < view.x + view.width / view.scale + pad &&
    x1 > view.x - pad
  );
}

/** One step of the script and what it cost. */
interface StepResult {
  name: string;
  requests: ChunkRequest[];
  views: View[];
  level: number;
  tiles: Stats["tiles"];
  cache: { hits: number; misses: number } | null;
  ms: number;
}

describe.skipIf(!chromiumAvailableOrWarn("viewer tiles"))("the viewer's tiles in Chromium", () => {
  const { dir, remove } = tempDir("z-viewer-tiles-");
  let server: { url: string; close: () => Promise<void> };
  let browser: Browser;
  const log: ServedRecord[] = [];
  /** Milliseconds the server holds each chunk answer (raised for the fast pan). */
  let chunkDelay = 0;

  beforeAll(async () => {
    const data = path.join(dir, "data");
    mkdirSync(data, { recursive: true });
    await writePyramid(path.join(data, "pyramid.zarr"));
    const site = await buildViewer(path.join(dir, "site"));
    server = await startStaticServer({
      mounts: { "/": site, "/data/": data },
      log: (record) => log.push(record),
      delay: (urlPath) => (CHUNK_PATH.test(urlPath) ? chunkDelay : 0),
    });
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    remove();
  });

  /**
   * Opens the pyramid (`cache` MB of decoded tiles, 0 for none), sets fixed contrast, and
   * returns the page with the chunk requests the opening view made.
   */
  async function openViewer(
    cache: number,
  ): Promise<{ page: Page; opened: ChunkRequest[]; view: View }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (e) => expect.fail(e.message));
    const from = log.length;
    await page.goto(`${server.url}?url=data/pyramid.zarr&cache=${cache}`);
    await page.waitForFunction(
      () => (window as unknown as { __viewer: ViewerApi }).__viewer.state().renders > 0,
      undefined,
      { timeout: 60_000 },
    );
    await call(page, "idle");
    await page.fill("#lo", "0");
    await page.fill("#hi", "65535");
    await page.locator("#hi").dispatchEvent("change");
    const { view } = (await call(page, "state")) as State;
    return { page, opened: chunkRequests(log.slice(from)), view };
  }

  /** Calls a method of the page's `window.__viewer`. */
  const call = (page: Page, method: keyof ViewerApi, ...args: unknown[]) =>
    page.evaluate(
      ([m, a]) =>
        (window as unknown as { __viewer: Record<string, (...x: unknown[]) => unknown> }).__viewer[
          m
        ](...a),
      [method, args] as const,
    );

  /** Runs `action` in the page, waits until the viewer is idle, and collects the step's cost. */
  async function step(
    page: Page,
    name: string,
    action: (call: (method: keyof ViewerApi, ...args: unknown[]) => Promise<unknown>) => unknown,
  ): Promise<StepResult> {
    const before = (await call(page, "stats")) as Stats;
    const from = log.length;
    const started = performance.now();
    await action((method, ...args) => call(page, method, ...args));
    await call(page, "idle");
    const ms = performance.now() - started;
    const after = (await call(page, "stats")) as Stats;
    const state = (await call(page, "state")) as State;
    expect(state.error).toBeUndefined();
    const delta = (k: keyof Stats["tiles"]) => after.tiles[k] - before.tiles[k];
    return {
      name,
      requests: chunkRequests(log.slice(from)),
      views: [state.view],
      level: state.level,
      tiles: {
        requested: delta("requested"),
        loaded: delta("loaded"),
        aborted: delta("aborted"),
        failed: delta("failed"),
        readMs: delta("readMs"),
      },
      cache:
        after.cache && before.cache
          ? {
              hits: after.cache.hits - before.cache.hits,
              misses: after.cache.misses - before.cache.misses,
            }
          : null,
      ms,
    };
  }

  function print(label: string, s: StepResult): void {
    const bytes = s.requests.reduce((n, r) => n + r.bytes, 0);
    const aborted = s.requests.filter((r) => r.aborted).length;
    const cache = s.cache ? `, cache ${s.cache.hits} hits / ${s.cache.misses} misses` : "";
    console.log(
      `[viewer requests] ${label.padEnd(9)} ${s.name.padEnd(10)} level ${s.level}: ` +
        `${s.requests.length} chunk requests (${aborted} aborted), ${bytes} bytes; ` +
        `${s.tiles.requested} tile reads, ${s.tiles.aborted} aborted, ` +
        `${s.tiles.readMs.toFixed(0)} ms reading${cache}; step ${s.ms.toFixed(0)} ms`,
    );
  }

  /**
   * The canvas's rows are the data where the view puts it (1:1 at level 0; gray, contrast
   * 0..65535): the tiles were drawn in their places, each from its own chunk.
   */
  async function expectCanvasShows(page: Page): Promise<void> {
    const state = (await call(page, "state")) as State;
    const { x, y, scale, width, height } = state.view;
    expect([state.level, scale, state.lo, state.hi]).toEqual([0, 1, 0, 65535]);
    const table = colormapTable("gray");
    for (const row of [3, Math.floor(height / 2), height - 1]) {
      const got = await page.evaluate(
        ([r, w]) => {
          const canvas = document.getElementById("canvas") as HTMLCanvasElement;
          const context = canvas.getContext("2d") as CanvasRenderingContext2D;
          return [...context.getImageData(0, r, w, 1).data].filter((_, i) => i % 4 === 0);
        },
        [row, width] as const,
      );
      const want = Array.from(
        { length: width },
        (_, c) => table[3 * colormapIndex(value(state.indices[0], y + row, x + c), 0, 65535)],
      );
      expect(got, `canvas row ${row}`).toEqual(want);
    }
  }

  /**
   * From the opening view (the whole image at level 2), to 1:1 at the top-left, pan right a
   * screen, pan back, zoom in, zoom out.
   */
  async function script(page: Page): Promise<Record<string, StepResult>> {
    const { width } = ((await call(page, "state")) as State).view;
    const steps: StepResult[] = [];
    steps.push(await step(page, "1:1", (v) => v("show", { x: 0, y: 0, scale: 1 })));
    steps.push(await step(page, "pan right", (v) => v("panBy", width, 0)));
    await expectCanvasShows(page);
    steps.push(await step(page, "pan back", (v) => v("panTo", 0, 0)));
    steps.push(await step(page, "zoom in", (v) => v("zoomTo", 2)));
    steps.push(await step(page, "zoom out", (v) => v("zoomTo", { level: 2 })));
    return Object.fromEntries(steps.map((s) => [s.name, s]));
  }

  let cached: Record<string, StepResult>;

  it("reads each chunk near the view once, and nothing for views the cache holds", async () => {
    log.length = 0;
    const { page, opened, view } = await openViewer(256);
    cached = await script(page);
    console.log(
      `[viewer requests] cache on  open: level 2, ${opened.length} chunk requests, ` +
        `${opened.reduce((n, r) => n + r.bytes, 0)} bytes`,
    );
    for (const s of Object.values(cached)) print("cache on", s);
    // The opening view shows the whole image at level 2 (384 x 512 in 3 x 4 chunks).
    expect(opened.map((r) => r.level)).toEqual(Array(12).fill(2));
    const all = [{ name: "open", requests: opened, views: [view] }, ...Object.values(cached)];
    // Every chunk request lies within the view plus the margin of its step.
    for (const s of all)
      for (const r of s.requests)
        expect(
          s.views.some((v) => chunkNearView(r, v, MARGIN)),
          `${s.name}: ${r.path} is outside the view plus ${MARGIN} px`,
        ).toBe(true);
    // The first views read: 1:1 at level 0 needs its tiles, panning right a screen needs more.
    expect(cached["1:1"].level).toBe(0);
    expect(cached["1:1"].requests.length).toBeGreaterThan(20);
    expect(cached["pan right"].requests.length).toBeGreaterThan(10);
    // What the cache holds is never asked for again: panning back, zooming in on what is
    // loaded and zooming out to a level read before cost no request at all.
    expect(cached["pan back"].requests).toEqual([]);
    expect(cached["pan back"].tiles.requested).toBeGreaterThan(0);
    expect(cached["pan back"].cache?.hits).toBe(cached["pan back"].tiles.requested);
    expect(cached["zoom in"].requests).toEqual([]);
    expect(cached["zoom out"].level).toBe(2);
    expect(cached["zoom out"].requests).toEqual([]);
    const keys = all.flatMap((s) => s.requests.map((r) => r.path));
    expect(new Set(keys).size, "a chunk was requested twice").toBe(keys.length);
    const stats = (await call(page, "stats")) as Stats;
    expect(stats.cache?.evictions).toBe(0);

    // A fast pan over a slow server: the tiles of a view left before its reads finished are
    // aborted, in the page and on the wire.
    chunkDelay = 400;
    try {
      const bottom = FULL[1] - 700;
      const fast = await step(page, "fast pan", async (v) => {
        const from = log.length;
        await v("show", { x: 0, y: bottom, scale: 1 });
        // Pan on once the server holds some of this view's chunk requests unanswered.
        for (let waited = 0; waited < 10_000; waited += 10) {
          if (chunkRequests(log.slice(from)).some((r) => r.status === 0 && !r.aborted)) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        await v("panTo", FULL[2] - 900, bottom);
      });
      fast.views.push({ ...fast.views[0], x: 0, y: bottom });
      print("cache on", fast);
      expect(fast.tiles.aborted).toBeGreaterThan(0);
      const onWire = fast.requests.filter((r) => r.aborted);
      const fullBytes = fast.requests.filter((r) => !r.aborted).map((r) => r.bytes);
      console.log(
        `[viewer requests] fast pan: ${fast.tiles.aborted} tile reads aborted in the page, ` +
          `${onWire.length} requests closed by the browser before their answer ` +
          `(${onWire.reduce((n, r) => n + r.bytes, 0)} bytes sent for them, ` +
          `${fullBytes.length} answered in full)`,
      );
      expect(onWire.length).toBeGreaterThan(0);
      for (const r of onWire) expect(r.bytes).toBe(0);
      for (const r of fast.requests)
        expect(fast.views.some((v) => chunkNearView(r, v, MARGIN))).toBe(true);
    } finally {
      chunkDelay = 0;
    }
    await page.close();
  });

  it("without the cache, panning back reads the chunks again", async () => {
    const { page } = await openViewer(0);
    const uncached = await script(page);
    for (const s of Object.values(uncached)) print("cache off", s);
    const back = uncached["pan back"];
    // Same views, same tiles: the cached run's pan back asked the server for none of them.
    expect(back.tiles.requested).toBe(cached["pan back"].tiles.requested);
    expect(back.requests.length).toBe(back.tiles.requested);
    expect(uncached["zoom out"].requests.length).toBeGreaterThan(0);
    const on = cached["pan back"];
    // The reads overlap, so their summed time is more than the time the step took.
    const cost = (s: StepResult) =>
      `${s.requests.length} requests (${s.requests.reduce((n, r) => n + r.bytes, 0)} bytes), ` +
      `${s.tiles.requested} tiles read in ${s.tiles.readMs.toFixed(0)} ms summed ` +
      `(${(s.tiles.readMs / Math.max(1, s.tiles.requested)).toFixed(1)} ms a tile), ` +
      `idle after ${s.ms.toFixed(0)} ms`;
    console.log(`[viewer requests] pan back with the cache: ${cost(on)}`);
    console.log(`[viewer requests] pan back without the cache: ${cost(back)}`);
    await page.close();
  });

  it("pans with a mouse drag and zooms about the pointer with the wheel", async () => {
    const { page, view } = await openViewer(256);
    const box = await page.locator("#canvas").boundingBox();
    if (!box) expect.fail("no canvas");
    const [px, py] = [box.x + 400, box.y + 300];
    await page.mouse.move(px, py);
    await page.mouse.down();
    await page.mouse.move(px - 200, py - 100, { steps: 5 });
    await page.mouse.up();
    const dragged = ((await call(page, "state")) as State).view;
    // Dragging the image left and up by (200, 100) screen pixels moves the view right and down.
    expect(dragged.x).toBeCloseTo(view.x + 200 / view.scale, 6);
    expect(dragged.y).toBeCloseTo(view.y + 100 / view.scale, 6);
    // The wheel zooms in about the pointer: the full-resolution point under it stays there (a
    // point well inside the image, so holding the image on screen does not move the view).
    const [sx, sy] = [50, 50];
    const under = [dragged.x + sx / dragged.scale, dragged.y + sy / dragged.scale];
    await page.mouse.move(box.x + sx, box.y + sy);
    await page.mouse.wheel(0, -500);
    await page.waitForFunction(
      (scale) => (window as unknown as { __viewer: ViewerApi }).__viewer.state().view.scale > scale,
      dragged.scale,
    );
    await call(page, "idle");
    const zoomed = (await call(page, "state")) as State;
    expect(zoomed.view.scale).toBeGreaterThan(dragged.scale);
    expect(zoomed.view.x + sx / zoomed.view.scale).toBeCloseTo(under[0], 6);
    expect(zoomed.view.y + sy / zoomed.view.scale).toBeCloseTo(under[1], 6);
    expect(zoomed.level).toBeLessThan(2);
    expect(zoomed.error).toBeUndefined();
    await page.close();
  });
});

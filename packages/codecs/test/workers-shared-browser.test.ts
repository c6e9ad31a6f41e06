// Array reads and writes through the Web Worker pool in headless Chromium. On a page served
// cross-origin isolated, a read's result lies in a SharedArrayBuffer and the workers copy each
// chunk's parts into it themselves; on a page served without isolation, chunks come back to the
// page and are copied there. Either way a read gives the bytes an inline read gives, and both
// match a reference built from the values written; writes through the pool store the bytes an
// inline write stores. The page is bundled by Vite from the TypeScript sources.
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  chromiumAvailableOrWarn,
  launchChromium,
  NOT_BUNDLED_IN_PAGES,
  tempDir,
} from "@z/test-utils";
import fc from "fast-check";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStaticServer } from "../../../examples/viewer/static-server.mjs";
import type {
  AxisCase,
  ReadCase,
  ReadOutcome,
  WriteCase,
  WriteOutcome,
} from "./workers-shared-page/entry.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("shared results of the Web Worker pool in Chromium");

/** Bundles the test page (and the worker it starts) into `outDir`. */
async function buildPage(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: false,
    logLevel: "error",
    root: path.join(here, "workers-shared-page"),
    resolve: { conditions: ["source", "browser", "import", "module", "default"] },
    worker: { format: "es", rollupOptions: { external: [...NOT_BUNDLED_IN_PAGES] } },
    build: {
      outDir,
      emptyOutDir: true,
      target: "es2022",
      minify: false,
      rollupOptions: { external: [...NOT_BUNDLED_IN_PAGES] },
    },
  });
}

/** One axis of a basic selection over `n` elements, with the indices it takes. */
function axisCase(n: number): fc.Arbitrary<AxisCase> {
  const index = fc.integer({ min: 0, max: n - 1 }).map((i) => ({ index: i }));
  const ranged = fc
    .record({
      start: fc.integer({ min: 0, max: n - 1 }),
      count: fc.integer({ min: 1, max: n }),
      step: fc.integer({ min: 1, max: 4 }),
      back: fc.boolean(),
    })
    .map(({ start, count, step, back }): AxisCase => {
      if (back) {
        const taken = Math.min(count, Math.floor(start / step) + 1);
        const stop = start - taken * step;
        const indices = Array.from({ length: taken }, (_, k) => start - k * step);
        return { start, stop: stop < 0 ? null : stop, step: -step, indices };
      }
      const taken = Math.min(count, Math.floor((n - 1 - start) / step) + 1);
      const indices = Array.from({ length: taken }, (_, k) => start + k * step);
      return { start, stop: start + (taken - 1) * step + 1, step, indices };
    });
  const all = fc.constant<AxisCase>({ start: 0, stop: n, step: 1, indices: [...Array(n).keys()] });
  return fc.oneof({ arbitrary: ranged, weight: 4 }, { arbitrary: index, weight: 1 }, all);
}

const COMPRESSORS = [
  { name: "zstd", configuration: { level: 1 } },
  // Small blocks: a worker decodes only the blocks a chunk's part touches.
  { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: 256 } },
  {
    name: "blosc",
    configuration: { cname: "zstd", clevel: 3, shuffle: "bitshuffle", blocksize: 256 },
  },
];

const readCases: fc.Arbitrary<ReadCase> = fc
  .record({
    ndim: fc.integer({ min: 1, max: 3 }),
    dtype: fc.constantFrom(...(["float32", "int64", "complex64", "bool", "uint8"] as const)),
    written: fc.constantFrom("all", "part", "none"),
    order: fc.boolean(),
  })
  .chain(({ ndim, dtype, written, order }) =>
    fc
      .array(fc.integer({ min: 12, max: 60 }), { minLength: ndim, maxLength: ndim })
      .chain((shape) =>
        fc.record({
          shape: fc.constant(shape),
          chunks: fc.tuple(...shape.map((n) => fc.integer({ min: 6, max: n }))),
          dtype: fc.constant(dtype),
          writtenRows: fc.constant(
            written === "all" ? shape[0] : written === "none" ? 0 : Math.ceil(shape[0] / 2),
          ),
          fOrder: fc.constant(order && ndim > 1),
          compressor: fc.constantFrom(...COMPRESSORS),
          axes: fc.tuple(...shape.map(axisCase)),
          seed: fc.integer({ min: 0, max: 1000 }),
        }),
      ),
  );

/** What the reference model says about a read: its chunks, and which of them were written. */
function chunksOf(c: ReadCase): { touched: number; written: number; wholeChunk: boolean } {
  const perAxis = c.axes.map((a, d) => {
    const indices = "index" in a ? [a.index] : a.indices;
    return new Set(indices.map((i) => Math.floor(i / c.chunks[d])));
  });
  const touched = perAxis.reduce((n, s) => n * s.size, 1);
  // Chunks exist where a write reached them: rows below writtenRows.
  const rowChunks = [...perAxis[0]].filter((k) => k * c.chunks[0] < c.writtenRows).length;
  const written = (touched / perAxis[0].size) * rowChunks;
  // One whole chunk read (every element of it, in any order) is the decoded chunk or a copy
  // of it, not a shared result. A chunk the array's edge cuts short is never read whole.
  const wholeChunk =
    touched === 1 && c.axes.every((a, d) => !("index" in a) && a.indices.length === c.chunks[d]);
  return { touched, written, wholeChunk };
}

const writeCases: fc.Arbitrary<WriteCase> = fc.record({
  dtype: fc.constantFrom(...(["float32", "int64", "complex64", "uint16"] as const)),
  compressor: fc.constantFrom(...COMPRESSORS),
  sharded: fc.boolean(),
  sharedSource: fc.boolean(),
  seed: fc.integer({ min: 0, max: 2 ** 31 }),
});

/** A tab on one of the servers, with the page's errors. */
interface OpenPage {
  page: Page;
  errors: string[];
  call<T>(name: string, argument?: unknown): Promise<T>;
}

async function openPage(browser: Browser, url: string): Promise<OpenPage> {
  // A context each: the isolated and the plain page share no process or agent cluster.
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(`console.error: ${m.text()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => "__readCase" in globalThis, null, { timeout: 30_000 });
  return {
    page,
    errors,
    call: <T>(name: string, argument: unknown = null) =>
      page.evaluate(
        ([fn, arg]) =>
          (globalThis as unknown as Record<string, (a: unknown) => Promise<unknown>>)[fn](arg),
        [name, argument] as [string, unknown],
      ) as Promise<T>,
  };
}

/** The checks every read makes, isolated or not: all three reads give the reference bytes. */
function expectReference(c: ReadCase, r: ReadOutcome): void {
  expect(r.shape.inline, "inline shape").toEqual(r.shape.reference);
  expect(r.shape.pooled, "pooled shape").toEqual(r.shape.reference);
  expect(r.shape.unshared, "unshared shape").toEqual(r.shape.reference);
  expect(r.differs, "first differing byte against the reference").toEqual({
    inline: -1,
    pooled: -1,
    unshared: -1,
  });
  expect(r.container.pooled).toBe(r.container.inline);
  expect(r.container.unshared).toBe(r.container.inline);
  // Every chunk that exists is decoded in a worker: once for the pooled read, once unshared.
  // A written chunk that holds only the fill value is not stored (the page counts the keys).
  const written = r.storedChunks;
  expect(written).toBeLessThanOrEqual(chunksOf(c).written);
  expect(r.traffic.pooled.place + r.traffic.pooled.decode, "chunks sent to workers").toBe(written);
  expect(r.traffic.unshared, "the unshared read").toEqual({
    place: 0,
    decode: written,
    encode: 0,
    placed: 0,
  });
  expect(r.buffer.unshared).toBe("ArrayBuffer");
}

describe.skipIf(!hasChromium)(
  "array reads and writes through the Web Worker pool in Chromium",
  () => {
    const { dir, remove } = tempDir("z-workers-shared-page-");
    let browser: Browser;
    let servers: { url: string; close: () => Promise<void> }[] = [];
    let isolated: OpenPage;
    let plain: OpenPage;

    beforeAll(async () => {
      await buildPage(dir);
      servers = [
        await startStaticServer({ mounts: { "/": dir }, crossOriginIsolated: true }),
        await startStaticServer({ mounts: { "/": dir } }),
      ];
      browser = await launchChromium();
      isolated = await openPage(browser, servers[0].url);
      plain = await openPage(browser, servers[1].url);
    }, 180_000);

    afterAll(async () => {
      expect(isolated?.errors ?? []).toEqual([]);
      expect(plain?.errors ?? []).toEqual([]);
      await browser?.close();
      for (const server of servers) await server.close();
      remove();
    });

    it("the pages are served cross-origin isolated and not", async () => {
      expect(await isolated.call("__isolation")).toEqual({
        isolated: true,
        sharedArrayBuffer: "function",
      });
      expect(await plain.call("__isolation")).toEqual({
        isolated: false,
        sharedArrayBuffer: "undefined",
      });
    });

    it("isolated: workers copy chunk parts into a shared result, which equals the inline read and the reference", async () => {
      let sharedReads = 0;
      await fc.assert(
        fc.asyncProperty(readCases, async (c) => {
          const r = await isolated.call<ReadOutcome>("__readCase", c);
          expect(r.isolated).toBe(true);
          expectReference(c, r);
          const { touched, wholeChunk } = chunksOf(c);
          const written = r.storedChunks;
          // Any read but of one whole chunk (which is the decoded chunk itself) lies in shared
          // memory, and every chunk that exists was copied into it by a worker.
          expect(r.buffer.pooled, `result memory (${touched} chunks)`).toBe(
            wholeChunk ? "ArrayBuffer" : "SharedArrayBuffer",
          );
          if (!wholeChunk) {
            expect(r.traffic.pooled).toEqual({
              place: written,
              decode: 0,
              encode: 0,
              placed: written,
            });
            if (touched > 1 && written > 0) sharedReads++;
          }
        }),
        { numRuns: 150 },
      );
      // Most cases touch several written chunks: the workers filled those results.
      expect(sharedReads).toBeGreaterThan(40);
    });

    it("isolated: an `out` in shared memory is filled in place by the workers, one in ordinary memory on the page", async () => {
      const r = await isolated.call<{
        same: boolean;
        differs: { shared: number; plain: number };
        traffic: { shared: Record<string, number>; plain: Record<string, number> };
      }>("__readIntoShared");
      expect(r.same).toBe(true);
      expect(r.differs).toEqual({ shared: -1, plain: -1 });
      // Rows 20..79 of chunks of 32 rows: 3 chunk rows, all 3 chunk columns.
      expect(r.traffic.shared).toEqual({ place: 9, decode: 0, encode: 0, placed: 9 });
      expect(r.traffic.plain).toEqual({ place: 0, decode: 9, encode: 0, placed: 0 });
    });

    it("without isolation: reads through the pool transfer chunks back and equal the inline read and the reference", async () => {
      await fc.assert(
        fc.asyncProperty(readCases, async (c) => {
          const r = await plain.call<ReadOutcome>("__readCase", c);
          expect(r.isolated).toBe(false);
          expectReference(c, r);
          expect(r.buffer.pooled).toBe("ArrayBuffer");
          expect(r.traffic.pooled).toEqual({
            place: 0,
            decode: r.storedChunks,
            encode: 0,
            placed: 0,
          });
        }),
        { numRuns: 80 },
      );
    });

    const expectSameStores = (r: WriteOutcome) => {
      expect(r.keys).toEqual({ pooledOnly: [], inlineOnly: [] });
      expect(r.differ).toEqual([]);
      expect(r.readBack).toBe(-1);
      // The whole write and the partial one both encode in the pool; inline, none does.
      expect(r.traffic.pooled.encode).toBeGreaterThan(0);
      expect(r.traffic.inline.encode).toBe(0);
    };

    it("writes through the pool store the bytes an inline write stores, plain and sharded (isolated)", async () => {
      await fc.assert(
        fc.asyncProperty(writeCases, async (c) => {
          expectSameStores(await isolated.call<WriteOutcome>("__writeCase", c));
        }),
        { numRuns: 30 },
      );
    });

    it("writes through the pool store the bytes an inline write stores, plain and sharded (no isolation)", async () => {
      await fc.assert(
        fc.asyncProperty(
          writeCases.filter((c) => !c.sharedSource),
          async (c) => {
            expectSameStores(await plain.call<WriteOutcome>("__writeCase", c));
          },
        ),
        { numRuns: 12 },
      );
    });
  },
);

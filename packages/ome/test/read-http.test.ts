import path from "node:path";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { startTestHttpServer, tempDir } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { openMultiscale, readTile, writePyramid } from "../src/index.js";

describe("readTile over HTTP", () => {
  it("an abort midway rejects with the AbortError and requests no further chunk", async () => {
    const sandbox = tempDir("z-ome-http-");
    const data = Uint8Array.from({ length: 128 * 128 }, (_, i) => i % 256);
    await writePyramid({ data, shape: [128, 128] }, new FsStore(path.join(sandbox.dir, "img")), {
      levels: 2,
      chunks: [32, 32],
    });
    // The tile's second chunk is never answered.
    const server = await startTestHttpServer({ root: sandbox.dir, stall: ["img/0/0/1"] });
    try {
      const image = await openMultiscale(new HttpStore(`${server.url}img/`));
      // The group is probed for a zarr.json; its v2 levels are then opened without one.
      const documents = server.requests
        .map((r) => r.path)
        .filter((p) => /(zarr\.json|\.z\w+)$/.test(p));
      expect(documents.filter((p) => p.endsWith("zarr.json"))).toEqual(["img/zarr.json"]);
      expect(documents).toContain("img/1/.zarray");
      const whole = await readTile(image, { level: 1, x: 0, y: 0, width: 64, height: 64 });
      expect(whole.shape).toEqual([64, 64]);
      const controller = new AbortController();
      const reading = readTile(image, {
        level: 0,
        x: 0,
        y: 0,
        width: 128,
        height: 32,
        signal: controller.signal,
        concurrency: 1,
      });
      const stalled = () => server.requests.some((r) => r.path === "img/0/0/1");
      while (!stalled()) await new Promise((r) => setTimeout(r, 10));
      controller.abort(new Error("scrolled away"));
      const e = await reading.catch((x) => x);
      expect(`${e.name}: ${e.message}`).toBe("AbortError: scrolled away");
      await new Promise((r) => setTimeout(r, 100));
      const level0 = server.requests.map((r) => r.path).filter((p) => p.startsWith("img/0/0/"));
      // chunks 0 and 1 of the row asked for; 2 and 3 never
      expect(level0).toEqual(["img/0/0/0", "img/0/0/1"]);
    } finally {
      await server.stop();
      sandbox.remove();
    }
  });
});

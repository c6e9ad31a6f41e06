// Runs in the browser: opens a pyramid over HTTP, picks a level, reads a tile, then reads
// another whose first chunk the server never answers and aborts it midway.
import { HttpStore } from "@z/store-http";
import { openMultiscale, pickLevel, readTile } from "../../src/index.js";

(window as unknown as { __run: (dataUrl: string) => Promise<unknown> }).__run = async (dataUrl) => {
  const image = await openMultiscale(new HttpStore(new URL("pyramid.ome.zarr/", dataUrl)));
  const level = pickLevel(image, { width: 64, height: 48 });
  const tile = await readTile(image, { level, x: 5, y: 3, width: 20, height: 10 });
  const controller = new AbortController();
  // Level 0's chunk (0, 0) stalls: abort once its request is surely out.
  const stalled = readTile(image, {
    level: 0,
    x: 0,
    y: 0,
    width: 64,
    height: 64,
    signal: controller.signal,
    concurrency: 1,
  });
  setTimeout(() => controller.abort(new Error("scrolled away")), 500);
  const aborted = await stalled.then(
    () => "resolved",
    (e: Error) => `${e.name}: ${e.message}`,
  );
  return {
    level: level.path,
    shape: tile.shape,
    values: Array.from(tile.data as Uint16Array),
    aborted,
  };
};

import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  runInChromium,
  startTestHttpServer,
  tempDir,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";
import type { PageRequest } from "./browser/page-fetch.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("browser http");

describe.skipIf(!hasChromium)("HttpStore in Chromium, data from another origin", () => {
  it("reads whole values and byte ranges through CORS, and is refused without it", async () => {
    const sandbox = tempDir("z-browser-cors-");
    const value = Uint8Array.from({ length: 100 }, (_, i) => (i * 7) % 256);
    mkdirSync(path.join(sandbox.dir, "data"));
    writeFileSync(path.join(sandbox.dir, "data/k"), value);
    const cors = await startTestHttpServer({ root: sandbox.dir, cors: true });
    const plain = await startTestHttpServer({ root: sandbox.dir });
    try {
      const bundle = await bundleForBrowser(path.join(here, "browser/http-cors.ts"));
      const run = await runInChromium<{
        origin: string;
        whole: number[];
        part: number[];
        open: number[];
        suffix: number[];
        missing: null;
        has: boolean;
        requests: PageRequest[];
        refused: string;
      }>(bundle, { corsUrl: cors.url, plainUrl: plain.url });
      const r = run.result;
      // Chromium logs the blocked read and the 404 of the missing key; nothing else may fail.
      const expectedNoise = ["CORS", "net::ERR_FAILED", "status of 404"];
      expect(run.errors.filter((e) => !expectedNoise.some((n) => e.includes(n)))).toEqual([]);
      expect(r.origin).not.toBe(new URL(cors.url).origin);
      expect(r.whole).toEqual([...value]);
      expect(r.part).toEqual([...value.subarray(10, 15)]);
      expect(r.open).toEqual([...value.subarray(95)]);
      expect(r.suffix).toEqual([...value.subarray(97)]);
      expect(r.missing).toBeNull();
      expect(r.has).toBe(true);
      expect(r.refused).not.toBe("read succeeded");

      // What the page asked for is what the server answered, request for request (preflights
      // are the browser's own and are not seen by the page).
      const served = cors.requests.filter((q) => q.method !== "OPTIONS");
      expect(served.map((q) => [q.method, q.path, q.range ?? null, q.status, q.bytes])).toEqual(
        r.requests.map((q) => [
          q.method,
          new URL(q.url).pathname.slice(1),
          q.range,
          q.status,
          q.bytes,
        ]),
      );
      expect(served.every((q) => q.headers.origin === r.origin)).toBe(true);
      expect(served.filter((q) => q.range !== undefined).map((q) => q.bytes)).toEqual([5, 5, 3]);
    } finally {
      await cors.stop();
      await plain.stop();
      sandbox.remove();
    }
  }, 180_000);
});

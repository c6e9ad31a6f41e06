import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  openChromiumPage,
  startTestHttpServer,
  tempDir,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("browser abort");

describe.skipIf(!hasChromium)("aborting a read in Chromium", () => {
  it("an AbortController aborts a read the server stalls on, with AbortError", async () => {
    const sandbox = tempDir("z-browser-abort-");
    const server = await startTestHttpServer({ root: sandbox.dir, cors: true, stall: ["slow"] });
    const page = await openChromiumPage(
      await bundleForBrowser(path.join(here, "browser/abort.ts")),
    );
    try {
      await page.call("__run", { dataUrl: server.url });
      // Abort only once the server holds the request, so the abort hits a read in flight.
      for (let i = 0; !server.requests.some((q) => q.path === "slow" && q.method === "GET"); i++) {
        expect(i, "the stalled request never reached the server").toBeLessThan(600);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await page.call("__settled")).toBe(false);
      const outcome = await page.call<{ name: string; message: string }>("__abort", null, 30_000);
      expect(outcome.name).toBe("AbortError");
      expect(server.requests.find((q) => q.path === "slow")?.status).toBe(0); // never answered
      expect(page.errors).toEqual([]);
    } finally {
      await page.close();
      await server.stop();
      sandbox.remove();
    }
  }, 180_000);
});

// The SIMD WebAssembly kernels (Blosc's shuffles, LZ4 block decoding) in headless Chromium:
// they load, and give the JavaScript kernels' bytes and decisions there too, Blosc frames decoded
// whole in the module included.
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  NOT_BUNDLED_IN_PAGES,
  runInChromium,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("SIMD kernels in Chromium");

interface PageResult {
  simd: boolean;
  loaded: boolean;
  blocks: number;
  streams: number;
  rejected: number;
  frames: number;
  framesInModule: number;
  mismatches: string[];
}

describe.skipIf(!hasChromium)("the SIMD kernels in Chromium", () => {
  it("load, and write what the JavaScript kernels write", async () => {
    const run = await runInChromium<PageResult>(
      await bundleForBrowser(path.join(here, "simd-page/entry.ts"), {
        external: [...NOT_BUNDLED_IN_PAGES],
      }),
    );
    expect(run.errors).toEqual([]);
    const { simd, loaded, blocks, streams, rejected, frames, framesInModule, mismatches } =
      run.result;
    expect({ simd, loaded, mismatches }).toEqual({ simd: true, loaded: true, mismatches: [] });
    expect(blocks).toBe(11 * 8 * 4);
    expect(streams).toBe(60 * 8);
    // The corruptions include rejected blocks and accepted ones.
    expect(rejected).toBeGreaterThan(0);
    expect(rejected).toBeLessThan(streams);
    expect(frames).toBe(2 * 3 * 7 * 2);
    // Frames that compress are decoded in the module (the others are stored uncompressed).
    expect(framesInModule).toBeGreaterThan(frames / 2);
  }, 180_000);
});

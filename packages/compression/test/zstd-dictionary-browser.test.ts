// zstd with a dictionary in Chromium, from an app built by Vite with code splitting: libzstd's
// decompressor is a chunk of its own that the page fetches only when it first decodes with a
// dictionary, and what it decodes is what the zstd tool compressed.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  chromiumAvailableOrWarn,
  launchChromium,
  startTestHttpServer,
  tempDir,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("zstd dictionary browser");

/** Builds the entry into `outDir` as a page would ship it: entry.js plus lazy chunks. */
async function buildApp(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: false,
    logLevel: "error",
    root: path.join(here, "browser"),
    resolve: { conditions: ["source", "browser", "import", "module", "default"] },
    build: {
      outDir,
      emptyOutDir: false,
      target: "es2022",
      minify: false,
      rollupOptions: {
        input: path.join(here, "browser/zstd-dictionary-entry.ts"),
        output: { format: "es", entryFileNames: "entry.js", chunkFileNames: "[name]-[hash].js" },
      },
    },
  });
  writeFileSync(
    path.join(outDir, "index.html"),
    '<!doctype html><meta charset="utf-8"><title>z</title><link rel="icon" href="data:,"><script type="module" src="/entry.js"></script>',
  );
}

/** Samples, a dictionary trained on them and frames compressed with it, by the zstd tool. */
function framesWithDictionary(dir: string): {
  inputs: Uint8Array[];
  frames: Uint8Array[];
  dictionary: Uint8Array;
} {
  mkdirSync(path.join(dir, "samples"));
  for (let i = 0; i < 300; i++)
    writeFileSync(
      path.join(dir, "samples", `${i}`),
      `https://data.example/run-${i % 9}/file-${i}.nc`,
    );
  const dict = path.join(dir, "dict");
  const trained = spawnSync(
    "zstd",
    ["-q", "--train", "-r", path.join(dir, "samples"), "-o", dict, "--maxdict=2048"],
    {
      encoding: "utf8",
    },
  );
  expect(trained.status, trained.stderr).toBe(0);
  const inputs = [3, 77, 250].map((i) =>
    new TextEncoder().encode(`https://data.example/run-${i % 9}/file-${i}.nc`),
  );
  const frames = inputs.map((input) => {
    writeFileSync(path.join(dir, "input"), input);
    const out = spawnSync("zstd", ["-q", "-c", "-D", dict, path.join(dir, "input")]);
    expect(out.status).toBe(0);
    return new Uint8Array(out.stdout);
  });
  return { inputs, frames, dictionary: new Uint8Array(readFileSync(dict)) };
}

describe.skipIf(!hasChromium)("zstd with a dictionary in Chromium", () => {
  it("loads the decoder on first use and decodes the zstd tool's frames", async () => {
    const sandbox = tempDir("z-zstd-dict-browser-");
    const site = path.join(sandbox.dir, "site");
    mkdirSync(site);
    await buildApp(site);
    const chunks = readdirSync(site).filter((f) => f.endsWith(".js"));
    // The module's bytes (base64): a long run of them is found only where the module is.
    const moduleText = readFileSync(path.join(here, "../src/zstd/zstd-wasm.ts"), "utf8");
    const marker = (/"([A-Za-z0-9+/=]{200,})"/.exec(moduleText) as RegExpExecArray)[1].slice(
      0,
      200,
    );
    const wasmChunks = chunks.filter((f) =>
      readFileSync(path.join(site, f), "utf8").includes(marker),
    );
    expect(wasmChunks).toHaveLength(1);
    expect(wasmChunks[0]).not.toBe("entry.js");
    const { inputs, frames, dictionary } = framesWithDictionary(sandbox.dir);
    const server = await startTestHttpServer({ root: site, contentTypes: true });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      const fetched: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("request", (r) => fetched.push(path.basename(new URL(r.url()).pathname)));
      await page.goto(`${server.url}index.html`);
      await page.waitForFunction(
        () => typeof (window as unknown as { __decode?: unknown }).__decode === "function",
        null,
        {
          timeout: 30_000,
        },
      );
      expect(fetched).toContain("entry.js");
      expect(fetched).not.toContain(wasmChunks[0]);
      const result = await page.evaluate(
        ([f, d]) =>
          (
            window as unknown as { __decode: (f: number[][], d: number[]) => Promise<unknown> }
          ).__decode(f, d),
        [frames.map((f) => Array.from(f)), Array.from(dictionary)] as const,
      );
      expect(errors).toEqual([]);
      expect(result).toEqual({
        decoded: inputs.map((i) => Array.from(i)),
        corrupt: "DecompressionError",
      });
      expect(fetched).toContain(wasmChunks[0]);
    } finally {
      await browser.close();
      await server.stop();
      sandbox.remove();
    }
  }, 180_000);
});

// The committed WebAssembly modules are what their build scripts in packages/compression/wasm
// make of the C sources there: rebuilt with the compiler they were built with, they are the same.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tempDir } from "@z/test-utils";
import { describe, expect, it } from "vitest";

/** `clang --version`'s first line, or undefined without clang. */
function clangVersion(): string | undefined {
  const result = spawnSync("clang", ["--version"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.split("\n")[0] : undefined;
}

const version = clangVersion();

const MODULES = [
  { name: "the SIMD kernels", script: "build.sh", module: "simd/kernels-wasm.ts", libc: false },
  // zfp links wasi-libc (Debian's wasi-libc package) for malloc, memcpy and its math.
  { name: "zfp", script: "build-zfp.sh", module: "zfp/zfp-wasm.ts", libc: true },
  // libzstd's decompressor links wasi-libc for malloc and memcpy.
  { name: "zstd", script: "build-zstd.sh", module: "zstd/zstd-wasm.ts", libc: true },
];

for (const { name, script, module, libc } of MODULES) {
  const scriptPath = fileURLToPath(new URL(`../wasm/${script}`, import.meta.url));
  const committed = fileURLToPath(new URL(`../src/${module}`, import.meta.url));
  const builtWith = /^\/\/ Compiler: (.*)$/m.exec(readFileSync(committed, "utf8"))?.[1];
  const canBuild =
    version !== undefined &&
    version === builtWith &&
    (!libc || existsSync("/usr/lib/wasm32-wasi/libc.a"));

  describe(`${name}' WebAssembly`, () => {
    it("records the compiler it was built with", () => {
      expect(builtWith).toMatch(/clang version \d+/);
    });

    // Other clang versions make other (equally valid) code; CI installs the recorded one.
    it.runIf(canBuild)(
      `is what ${script} makes of the C sources`,
      () => {
        const { dir, remove } = tempDir();
        try {
          const out = `${dir}/${module.split("/").pop()}`;
          const result = spawnSync("bash", [scriptPath, out], { encoding: "utf8" });
          expect(result.stderr).toBe("");
          expect(result.status).toBe(0);
          expect(readFileSync(out, "utf8")).toBe(readFileSync(committed, "utf8"));
        } finally {
          remove();
        }
      },
      120_000,
    );
  });
}

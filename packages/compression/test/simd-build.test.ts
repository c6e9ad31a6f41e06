// The committed WebAssembly of the SIMD kernels is what packages/compression/wasm/build.sh makes
// of the C sources there: rebuilt with the compiler it was built with, the module is the same.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tempDir } from "@z/test-utils";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("../wasm/build.sh", import.meta.url));
const committed = fileURLToPath(new URL("../src/simd/kernels-wasm.ts", import.meta.url));

/** `clang --version`'s first line, or undefined without clang. */
function clangVersion(): string | undefined {
  const result = spawnSync("clang", ["--version"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.split("\n")[0] : undefined;
}

const version = clangVersion();
const builtWith = /^\/\/ Compiler: (.*)$/m.exec(readFileSync(committed, "utf8"))?.[1];

describe("the SIMD kernels' WebAssembly", () => {
  it("records the compiler it was built with", () => {
    expect(builtWith).toMatch(/clang version \d+/);
  });

  // Other clang versions make other (equally valid) code; CI installs the recorded one.
  it.runIf(version !== undefined && version === builtWith)(
    "is what build.sh makes of the C sources",
    () => {
      const { dir, remove } = tempDir();
      try {
        const out = `${dir}/kernels-wasm.ts`;
        const result = spawnSync("bash", [script, out], { encoding: "utf8" });
        expect(result.stderr).toBe("");
        expect(result.status).toBe(0);
        expect(readFileSync(out, "utf8")).toBe(readFileSync(committed, "utf8"));
      } finally {
        remove();
      }
    },
    60_000,
  );
});

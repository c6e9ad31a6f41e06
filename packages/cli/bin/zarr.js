#!/usr/bin/env node
// The `zarr` command's entry point. It lives in the source tree (not in dist/) so that package
// managers can link it when the workspace is installed, before anything is built; it loads
// the compiled command, or says how to build it.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const compiled = new URL("../dist/bin.js", import.meta.url);
if (existsSync(fileURLToPath(compiled))) {
  await import(compiled.href);
} else {
  process.stderr.write(
    `zarr: ${fileURLToPath(compiled)} does not exist; build the packages first (pnpm build)\n`,
  );
  process.exitCode = 1;
}

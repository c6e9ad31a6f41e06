import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { builtPackagesOrWarn } from "@z/test-utils";
import type { BinResult } from "./run-bin.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const shim = path.resolve(here, "../../bin/zarr.js");

/**
 * Whether the built `zarr` command can be run (packages/cli/dist and what it imports are
 * built); says so once per suite when it cannot.
 */
export function haveBuiltCli(suite: string): boolean {
  return builtPackagesOrWarn(suite, ["cli", "zarr", "array"]);
}

/**
 * Runs the built `zarr` command (bin/zarr.js, which loads dist/bin.js) as a fresh Node process,
 * as an installed package runs: real argv, stdout, stderr and exit code.
 */
export function runBuilt(args: string[]): Promise<BinResult> {
  const { ZARR_LOG: _ignored, ...env } = process.env;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [shim, ...args],
      { env, maxBuffer: 1 << 26, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        if (typeof code !== "number") reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

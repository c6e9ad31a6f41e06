import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const cliRoot = path.resolve(here, "../..");

/** What one run of the `zarr` process printed, and how it exited. */
export interface BinResult {
  /** The exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/**
 * Runs the `zarr` binary (packages/cli/src/bin.ts) as its own Node process, the way a user
 * runs it: real argv, real environment (`ZARR_LOG`), real stdout and stderr, real exit code.
 * The TypeScript sources run through small module hooks (./ts-hooks.mjs), so no build is
 * needed. `ZARR_LOG` is cleared unless `env` sets it, so the caller's shell cannot leak in.
 */
export function runBin(args: string[], env: Record<string, string> = {}): Promise<BinResult> {
  const { ZARR_LOG: _ignored, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        "--conditions=source",
        "--import",
        path.join(here, "register-ts.mjs"),
        path.join(cliRoot, "src/bin.ts"),
        ...args,
      ],
      { env: { ...inherited, ...env }, maxBuffer: 1 << 26, encoding: "utf8" },
      (error, stdout, stderr) => {
        const code = error ? (error as { code?: unknown }).code : 0;
        if (typeof code !== "number") reject(error);
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

// zarr-python 2 (Debian's python3-zarr under /usr/bin/python3) as a benchmark participant: it
// runs out of process, one operation per call, and times itself (see zarr_python2.py).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The interpreter with Debian's zarr 2 and numcodecs. */
export const PYTHON = "/usr/bin/python3";
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "zarr_python2.py");

/**
 * Runs one operation of zarr_python2.py and resolves to its JSON answer.
 * @throws Error with Python's stderr when it fails (status 3: a wrong result)
 */
export function runPython(args) {
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      [SCRIPT, JSON.stringify(args)],
      { maxBuffer: 1 << 20, env: { ...process.env, OMP_NUM_THREADS: process.env.OMP_NUM_THREADS } },
      (error, stdout, stderr) => {
        if (error) {
          reject(new Error(`zarr-python 2 ${args.op} failed: ${stderr.trim() || error.message}`));
          return;
        }
        resolve(JSON.parse(stdout));
      },
    );
  });
}

/**
 * zarr-python 2's and numcodecs' versions, or undefined (with the reason) when the interpreter
 * or its packages are missing: the comparison is then left out.
 */
export async function probePython() {
  if (!existsSync(PYTHON)) return { missing: `${PYTHON} does not exist` };
  try {
    return { versions: await runPython({ op: "probe" }) };
  } catch (error) {
    return { missing: error.message };
  }
}

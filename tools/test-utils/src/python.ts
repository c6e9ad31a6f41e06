import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Debian's Python, which has python3-zarr and python3-numcodecs when CI installed them. */
export const SYSTEM_PYTHON = "/usr/bin/python3";

const checked = new Map<string, boolean>();

/**
 * Whether `/usr/bin/python3` can import the given modules; when it cannot, prints (once per
 * suite) why the suite's Python interop tests are skipped.
 */
export function havePython(suite: string, modules: string[] = ["zarr", "numcodecs"]): boolean {
  const key = modules.join(",");
  if (!checked.has(key)) {
    const ok =
      existsSync(SYSTEM_PYTHON) &&
      spawnSync(SYSTEM_PYTHON, ["-c", modules.map((m) => `import ${m}`).join("; ")], {
        stdio: "ignore",
      }).status === 0;
    checked.set(key, ok);
  }
  const ok = checked.get(key)!;
  if (!ok) {
    console.warn(
      `[${suite}] SKIPPED: ${SYSTEM_PYTHON} cannot import ${modules.join(", ")} (apt-get install python3-zarr)`,
    );
  }
  return ok;
}

/** Runs a Python script with `/usr/bin/python3`, passing `input` on stdin; returns stdout. */
export function runPython(script: string, input = ""): string {
  return execFileSync(SYSTEM_PYTHON, ["-c", script], {
    input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
}

import { afterEach } from "vitest";
import { tempDir } from "./temp.js";

/** Runs the `zarr` command in this process and returns its exit code and what it printed. */
export async function runCli(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { bufferedOutput, main } = await import("@z/cli");
  const output = bufferedOutput();
  const code = await main(args, output);
  return { code, stdout: output.stdout, stderr: output.stderr };
}

/**
 * Returns a function that makes a fresh temporary folder per call; the folders made during a
 * test are removed after it (call at the top level of a test file).
 */
export function scratchFolders(prefix: string): () => string {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    while (cleanups.length) cleanups.pop()!();
  });
  return () => {
    const { dir, remove } = tempDir(prefix);
    cleanups.push(remove);
    return dir;
  };
}

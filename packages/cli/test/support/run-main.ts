import { bufferedOutput, main } from "@z/cli";

/**
 * Runs the CLI in this process (`main` with a buffered output), for tests that check its exit
 * code and its text without starting the `zarr` binary.
 */
export async function runMain(
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = bufferedOutput();
  const code = await main(args, output);
  return { code, stdout: output.stdout, stderr: output.stderr };
}

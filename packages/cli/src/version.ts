import { readFileSync } from "node:fs";

/**
 * The version of `@z/cli`, from its package.json (one folder above both `src/` and `dist/`,
 * so it is right whether the sources or the build run).
 */
export function cliVersion(): string {
  const json = readFileSync(new URL("../package.json", import.meta.url), "utf8");
  return (JSON.parse(json) as { version: string }).version;
}

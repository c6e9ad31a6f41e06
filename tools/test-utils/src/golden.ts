import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fixturePath, fixturesDir } from "./fixtures.js";
import { type Npy, readNpy } from "./npy.js";

/** One numcodecs golden case: a codec configuration, an input array and its encoding. */
export interface GoldenCase {
  /** A readable label, e.g. `zlib/codec.02/encoded.05`. */
  label: string;
  /** The numcodecs configuration (with its `id`). */
  config: Record<string, unknown>;
  /** The input array. */
  array: Npy;
  /** The bytes numcodecs encoded it to. */
  encoded: Uint8Array;
}

/**
 * Every golden case of a numcodecs codec folder (`numcodecs/fixture/<codec>`, or a subfolder
 * such as `astype/f`), empty when the fixtures are absent.
 */
export function goldenCases(codecFolder: string): GoldenCase[] {
  if (!fixturesDir) return [];
  const base = fixturePath("numcodecs", "fixture", codecFolder);
  if (!existsSync(base)) return [];
  const cases: GoldenCase[] = [];
  for (const codecDir of readdirSync(base)
    .filter((d) => d.startsWith("codec."))
    .sort()) {
    const dir = path.join(base, codecDir);
    const config = JSON.parse(readFileSync(path.join(dir, "config.json"), "utf8"));
    for (const file of readdirSync(dir)
      .filter((f) => /^encoded\.\d+\.dat$/.test(f))
      .sort()) {
      const n = file.split(".")[1];
      const arrayFile = path.join(base, `array.${n}.npy`);
      if (!existsSync(arrayFile)) continue;
      cases.push({
        label: `${codecFolder}/${codecDir}/${file}`,
        config,
        array: readNpy(arrayFile),
        encoded: new Uint8Array(readFileSync(path.join(dir, file))),
      });
    }
  }
  return cases;
}

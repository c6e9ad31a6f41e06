import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "@z/test-utils";
import { describe, expect, it } from "vitest";

/**
 * ARCHITECTURE.md names files and folders in backticks (`packages/array/src/io/`,
 * `packages/codecs/src/pipeline.ts`). A rename that forgets the document fails here, so the map
 * a newcomer reads stays true.
 */
const text = readFileSync(join(repositoryRoot, "ARCHITECTURE.md"), "utf8");

/** Every backticked repository path: starts at a top-level folder, no spaces or wildcards. */
function referencedPaths(markdown: string): string[] {
  const roots = ["packages/", "tools/", "conformance/", "bench/", "examples/", "docs/", ".ci/"];
  const paths = new Set<string>();
  for (const [, span] of markdown.matchAll(/`([^`\s*]+)`/g))
    if (roots.some((root) => span.startsWith(root))) paths.add(span.replace(/[.,:;]+$/, ""));
  return [...paths];
}

describe("ARCHITECTURE.md", () => {
  const paths = referencedPaths(text);

  it("names the files it describes", () => {
    expect(paths.length).toBeGreaterThan(30);
  });

  it("names only files and folders that exist", () => {
    const missing = paths.filter((path) => !existsSync(join(repositoryRoot, path)));
    expect(missing).toEqual([]);
  });

  it("names every package folder", () => {
    const packages = [...text.matchAll(/`packages\/([a-z0-9-]+)\/?`/g)].map((m) => m[1]);
    const folders = readdirSync(join(repositoryRoot, "packages")).filter((name) =>
      existsSync(join(repositoryRoot, "packages", name, "package.json")),
    );
    expect(folders.filter((name) => !packages.includes(name))).toEqual([]);
  });
});

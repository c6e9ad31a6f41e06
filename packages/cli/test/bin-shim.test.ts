import { execFile } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = join(import.meta.dirname, "..");
const shim = join(packageDir, "bin", "zarr.js");

describe("the zarr bin shim (in the source tree, so installs can link it before a build)", () => {
  let dir: string;
  beforeEach(async () => {
    // A copy of the package layout: bin/zarr.js beside a dist/ we control.
    dir = await mkdtemp(join(tmpdir(), "zarr-bin-"));
    await mkdir(join(dir, "bin"));
    await writeFile(join(dir, "package.json"), '{"type": "module"}');
    await copyFile(shim, join(dir, "bin", "zarr.js"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("is what package.json's bin points at, and is published", async () => {
    const pkg = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8"));
    expect(pkg.bin).toEqual({ zarr: "./bin/zarr.js" });
    expect(pkg.files).toContain("bin");
    expect((await readFile(shim, "utf8")).startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("runs the compiled command with the arguments and its exit code", async () => {
    await mkdir(join(dir, "dist"));
    await writeFile(
      join(dir, "dist", "bin.js"),
      "process.stdout.write(JSON.stringify(process.argv.slice(2))); process.exitCode = 3;\n",
    );
    const result = await run(process.execPath, [join(dir, "bin", "zarr.js"), "info", "a b"]).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect(result).toMatchObject({ code: 3, stdout: '["info","a b"]' });
  });

  it("says to build first when dist/ is missing", async () => {
    await chmod(join(dir, "bin", "zarr.js"), 0o755);
    const error = await run(process.execPath, [join(dir, "bin", "zarr.js"), "--help"]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(error).toMatchObject({ code: 1 });
    expect((error as { stderr: string }).stderr).toMatch(/dist.bin\.js does not exist.*pnpm build/);
  });

  it("passes on other errors of the compiled command", async () => {
    await mkdir(join(dir, "dist"));
    await writeFile(join(dir, "dist", "bin.js"), 'import "./missing-dependency.js";\n');
    const error = await run(process.execPath, [join(dir, "bin", "zarr.js")]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((error as { stderr: string }).stderr).toMatch(/missing-dependency\.js/);
    expect((error as { stderr: string }).stderr).not.toMatch(/pnpm build/);
  });
});

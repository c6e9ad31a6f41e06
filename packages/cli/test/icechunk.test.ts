import path from "node:path";
import { pathToFileURL } from "node:url";
import { scratchFolders, startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { openArray } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CommitLabel,
  type OfficialRepo,
  officialRepositoryIn,
  valueAt,
  versionAt,
} from "../../zarr/test/icechunk/official-on-disk.js";
import { haveBuiltCli, runBuilt } from "./support/run-built.js";
import { runMain } from "./support/run-main.js";

const scratch = scratchFolders("z-cli-icechunk-");
const built = haveBuiltCli("zarr on Icechunk repositories, the built command");

/** The int32 array's first `n` values as commit `label` left them. */
const int32At = (label: CommitLabel, n = 300) =>
  Array.from({ length: n }, (_, i) => valueAt("int32", i, versionAt(label, i)));

describe("zarr on an Icechunk repository the official implementation wrote", () => {
  const { dir, remove } = tempDir("z-cli-icechunk-repo-");
  const repo = path.join(dir, "repo.icechunk");
  const location = `icechunk+${pathToFileURL(repo).href}`;
  let written: OfficialRepo;
  let server: TestHttpServer;
  beforeAll(async () => {
    written = await officialRepositoryIn(repo, 2);
    server = await startTestHttpServer({ root: dir });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    remove();
  });

  it("zarr log lists each branch's and tag's snapshots newest first, as the official ancestry", async () => {
    for (const [ref, ids] of Object.entries(written.ancestry)) {
      const args = ref === "main" ? [] : ["--ref", ref];
      const { code, stdout } = await runMain("log", location, ...args);
      expect(code).toBe(0);
      const lines = stdout.trimEnd().split("\n");
      expect(
        lines.map((l) => l.split("  ")[0]),
        ref,
      ).toEqual(ids);
      for (const line of lines) {
        const [id, time] = line.split("  ");
        expect(Math.abs(Date.parse(time) - Date.parse(written.writtenAt[id]))).toBeLessThan(1);
      }
    }
    const { stdout } = await runMain("log", location, "--json");
    const entries = JSON.parse(stdout) as { id: string; time: string; message: string }[];
    expect(entries.map((e) => e.message)).toEqual([
      "second data",
      "first data",
      "Repository initialized",
    ]);
    expect(entries.map((e) => e.id)).toEqual(written.ancestry.main);
    const bySnapshot = await runMain("log", location, "--ref", written.snapshots.c3);
    expect(bySnapshot.stdout.trimEnd().split("\n")).toHaveLength(written.ancestry.dev.length);
  });

  it("--ref reads a tag, a branch or a snapshot for get, info and tree", async () => {
    const get = async (...args: string[]) => {
      const r = await runMain("get", location, "--path", "numeric/int32", "--json", ...args);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { values: number[] }).values;
    };
    expect(await get()).toEqual(int32At("c2"));
    expect(await get("--ref", "v1")).toEqual(int32At("c1"));
    expect(await get("--ref", "dev")).toEqual(int32At("c3"));
    expect(await get("--ref", written.snapshots.c1, "--select", "0:5")).toEqual(int32At("c1", 5));
    // "doomed" was deleted by the second commit: there at v1, gone on main.
    const old = await runMain("tree", location, "--ref", "v1");
    expect(old.stdout).toMatch(/doomed \(4,\) uint8/);
    expect((await runMain("tree", location)).stdout).not.toMatch(/doomed/);
    const info = await runMain("info", location, "--ref", "v1", "--path", "doomed", "--json");
    expect(JSON.parse(info.stdout).shape).toEqual([4]);
  });

  it("copy --ref copies a snapshot out of the repository", async () => {
    const out = path.join(scratch(), "copy.zarr");
    const { code, stderr } = await runMain(
      "copy",
      location,
      out,
      "--ref",
      "v1",
      "--path",
      "numeric",
    );
    expect(code, stderr).toBe(0);
    const arr = await openArray(out, { path: "numeric/int32" });
    expect(Array.from((await arr.get()).data as Int32Array)).toEqual(int32At("c1"));
  });

  it("refuses --ref on a location that is no repository, and a ref that names nothing", async () => {
    const plain = await runMain("get", repo, "--ref", "v1");
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/--ref names a branch, tag or snapshot of an Icechunk repository/);
    const log = await runMain("log", repo);
    expect(log.code).toBe(2);
    expect(log.stderr).toMatch(/write icechunk\+ before its location/);
    const missing = await runMain("get", location, "--path", "numeric/int32", "--ref", "nope");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/IcechunkRefNotFoundError/);
    const noRepo = await runMain("log", `icechunk+${dir}`);
    expect(noRepo.code).toBe(1);
    expect(noRepo.stderr).toMatch(/IcechunkRepositoryNotFoundError/);
  });

  it.skipIf(!built)("the built command reads icechunk+http:// and icechunk+<path>", async () => {
    const url = `icechunk+${server.url}repo.icechunk`;
    const get = await runBuilt(["get", url, "--path", "numeric/int32", "--ref", "v1", "--json"]);
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout).values).toEqual(int32At("c1"));
    expect(server.requests.some((r) => r.path.startsWith("repo.icechunk/snapshots/"))).toBe(true);
    const log = await runBuilt(["log", `icechunk+${repo}`, "--ref", "dev"]);
    expect(log.code, log.stderr).toBe(0);
    expect(
      log.stdout
        .trimEnd()
        .split("\n")
        .map((l) => l.split("  ")[0]),
    ).toEqual(written.ancestry.dev);
  });
});

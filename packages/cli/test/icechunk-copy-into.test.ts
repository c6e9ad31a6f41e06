import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { scratchFolders } from "@z/test-utils";
import { createArray, createGroup, FsStore, openArray } from "@z/zarr";
import { describe, expect, it } from "vitest";
import { icechunk, mapStorage, officialZarrStore } from "../../store-icechunk/test/official.js";
import { haveBuiltCli, runBuilt } from "./support/run-built.js";
import { runMain } from "./support/run-main.js";

type Any = any;
const scratch = scratchFolders("z-cli-icechunk-into-");
const built = haveBuiltCli("zarr copy into Icechunk, the built command");

/** Every file under `dir`, by its path relative to it (the repository as a Map of objects). */
function filesOf(dir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub))) {
      const rel = sub === "" ? name : `${sub}/${name}`;
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else out.set(rel, new Uint8Array(readFileSync(path.join(dir, rel))));
    }
  };
  walk("");
  return out;
}

/** A Zarr hierarchy with a group attribute and an int16 array of `values`. */
async function hierarchy(values: number[]): Promise<string> {
  const dir = path.join(scratch(), "source.zarr");
  await createGroup(new FsStore(dir), { attributes: { title: "source" } });
  const arr = await createArray(new FsStore(dir), {
    path: "t",
    shape: [values.length],
    chunks: [4],
    dtype: "int16",
  });
  await arr.set(null, Int16Array.from(values));
  return dir;
}

const logOf = async (location: string) =>
  JSON.parse((await runMain("log", location, "--json")).stdout) as {
    id: string;
    message: string;
  }[];

describe("zarr copy into an icechunk+ destination", () => {
  it("creates the repository, commits once, and the official implementation reads the commit", async () => {
    const values = Array.from({ length: 10 }, (_, i) => i * 3 - 7);
    const source = await hierarchy(values);
    const repo = path.join(scratch(), "new.icechunk");
    const location = `icechunk+${pathToFileURL(repo).href}`;
    const copied = await runMain("copy", source, location, "--message", "first import");
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stderr).toMatch(/committed snapshot [0-9A-Z]{20}/);
    const log = await logOf(location);
    expect(log.map((s) => s.message)).toEqual(["first import", "Repository initialized"]);
    const ours = await openArray(location, { path: "t" });
    expect(Array.from((await ours.get()).data)).toEqual(values);

    const ic = icechunk();
    const official = await ic.Repository.open(mapStorage(filesOf(repo)));
    const history = await official.ancestry({ branch: "main" });
    expect(history.map((s: Any) => s.id)).toEqual(log.map((s) => s.id));
    const session = await official.readonlySession({ branch: "main" });
    const theirs = await openArray(officialZarrStore(session.store), { path: "t" });
    expect(Array.from((await theirs.get()).data)).toEqual(values);

    // A second copy into the repository is one more commit on main.
    const again = await runMain(
      "copy",
      source,
      location,
      "--path",
      "t",
      "--overwrite",
      "--message",
      "again",
    );
    expect(again.code, again.stderr).toBe(0);
    expect((await logOf(location)).map((s) => s.message)).toEqual([
      "again",
      "first import",
      "Repository initialized",
    ]);
  });

  it("copies a snapshot of one repository into another, with a default message", async () => {
    const first = await hierarchy([1, 2, 3, 4, 5]);
    const second = await hierarchy([9, 8, 7, 6, 5]);
    const a = `icechunk+${path.join(scratch(), "a.icechunk")}`;
    expect((await runMain("copy", first, a, "--message", "one")).code).toBe(0);
    expect((await runMain("copy", second, a, "--overwrite", "--message", "two")).code).toBe(0);
    const [two, one] = await logOf(a);
    const b = `icechunk+${path.join(scratch(), "b.icechunk")}`;
    const copied = await runMain("copy", a, b, "--ref", one.id);
    expect(copied.code, copied.stderr).toBe(0);
    expect((await logOf(b)).map((s) => s.message)).toEqual([
      `zarr copy ${a}#ref=${one.id}`,
      "Repository initialized",
    ]);
    expect(Array.from((await (await openArray(b, { path: "t" })).get()).data)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(two.message).toBe("two");
  });

  it("commits nothing when the copy fails, and refuses --message elsewhere", async () => {
    const source = await hierarchy([1, 2, 3]);
    const repo = `icechunk+${path.join(scratch(), "r.icechunk")}`;
    expect((await runMain("copy", source, repo, "--message", "base")).code).toBe(0);
    // The node exists: refused without --overwrite, after the session opened.
    const refused = await runMain("copy", source, repo, "--message", "never");
    expect(refused.code).toBe(1);
    expect((await logOf(repo)).map((s) => s.message)).toEqual(["base", "Repository initialized"]);
    const plain = await runMain("copy", source, path.join(scratch(), "out.zarr"), "--message", "m");
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/--message is the commit message of an icechunk\+ destination/);
  });

  it.skipIf(!built)(
    "the built command copies into a new repository and logs the commit",
    async () => {
      const source = await hierarchy([4, 5, 6, 7]);
      const repo = `icechunk+${path.join(scratch(), "built.icechunk")}`;
      const copied = await runBuilt(["copy", source, repo, "--message", "from the built command"]);
      expect(copied.code, copied.stderr).toBe(0);
      const log = await runBuilt(["log", repo]);
      expect(log.code, log.stderr).toBe(0);
      const lines = log.stdout.trimEnd().split("\n");
      expect(lines.map((l) => l.split("  ")[2])).toEqual([
        "from the built command",
        "Repository initialized",
      ]);
      expect(copied.stderr).toContain(`committed snapshot ${lines[0].split("  ")[0]}`);
      const got = await runBuilt(["get", repo, "--path", "t", "--json"]);
      expect(JSON.parse(got.stdout).values).toEqual([4, 5, 6, 7]);
    },
  );
});

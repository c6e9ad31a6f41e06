import { openRepository } from "@z/store-icechunk";
import { openArray, openGroup, slice } from "@z/zarr";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type CommitLabel,
  NUMERIC_DTYPES,
  type OfficialRepo,
  shardedAt,
  valueAt,
  versionAt,
  writeOfficialRepository,
} from "./official-repo.js";

describe.each([1, 2] as const)(
  "a spec version %i repository written by the official implementation",
  (specVersion) => {
    let written: OfficialRepo;
    beforeAll(async () => {
      written = await writeOfficialRepository(specVersion);
    }, 120_000);

    it("lists its branches and tags as the official implementation does", async () => {
      const repo = await openRepository(written.files);
      expect(repo.specVersion).toBe(specVersion);
      expect(await repo.listBranches()).toEqual([...written.branches].sort());
      expect(await repo.listTags()).toEqual([...written.tags].sort());
      expect(await repo.listTags()).not.toContain("gone");
    });

    it("gives the same ancestry for every branch and tag", async () => {
      const repo = await openRepository(written.files);
      for (const [name, ids] of Object.entries(written.ancestry)) {
        const target = name.startsWith("v") ? { tag: name } : { branch: name };
        const ours = await repo.ancestry(target);
        expect(ours.map((s) => s.id)).toEqual(ids);
        for (const s of ours) {
          expect(
            Math.abs(s.flushedAt.getTime() - Date.parse(written.writtenAt[s.id])),
          ).toBeLessThan(1);
          expect(s.metadata).toEqual(written.metadata[s.id]);
        }
        expect(ours.at(-1)?.metadata).toEqual({ __icechunk: { is_root: true } });
      }
    });

    it("lists what each commit changed as the official diff does", async () => {
      const repo = await openRepository(written.files);
      for (const [id, diff] of Object.entries(written.diffs)) {
        const ours = await repo.changes(id);
        const official = diff as Record<string, unknown>;
        for (const field of [
          "newGroups",
          "newArrays",
          "deletedGroups",
          "deletedArrays",
          "updatedGroups",
          "updatedArrays",
        ])
          expect([...(ours[field as keyof typeof ours] as string[])].sort(), field).toEqual(
            [...(official[field] as string[])].sort(),
          );
        expect(ours.updatedChunks).toEqual(official.updatedChunks);
      }
      const c2 = await repo.changes(written.snapshots.c2);
      expect(c2.deletedArrays).toEqual(["/doomed"]);
      expect(c2.newArrays).toEqual(["/extra/sub/tiny"]);
    });

    it("holds inline and native chunks, as the official writer chose", async () => {
      const session = await (await openRepository(written.files)).readonlySession({
        branch: "main",
      });
      const kinds = new Set<string>();
      for await (const key of session.store.list()) {
        const ref = await session.store.chunkRef(key);
        if (ref) kinds.add(ref.kind);
      }
      expect([...kinds].sort()).toEqual(["inline", "native"]);
      expect([...written.files.keys()].some((k) => k.startsWith("chunks/"))).toBe(true);
    });

    const labels: Array<[string, (w: OfficialRepo) => object, CommitLabel]> = [
      ["branch main", () => ({ branch: "main" }), "c2"],
      ["branch dev", () => ({ branch: "dev" }), "c3"],
      ["tag v1", () => ({ tag: "v1" }), "c1"],
      ["tag v2", () => ({ tag: "v2" }), "c2"],
      ["snapshot c1", (w) => ({ snapshotId: w.snapshots.c1 }), "c1"],
    ];
    it.each(labels)("reads every array at %s", async (_name, target, label) => {
      const repo = await openRepository(written.files);
      const session = await repo.readonlySession(target(written) as never);
      const root = await openGroup(session.store);
      expect(root.attrs).toMatchObject({ title: "interop" });
      const members = (await root.members({ maxDepth: null })).map(([path]) => path);
      expect(members).toContain("numeric/float64");
      expect(members.includes("extra/sub/tiny")).toBe(label === "c2");
      for (const dtype of [...NUMERIC_DTYPES, "string"]) {
        const arr = await openArray(session.store, { path: `numeric/${dtype}` });
        const got = await arr.get(null);
        const values = Array.from(got.data as ArrayLike<unknown>, (x) =>
          typeof x === "boolean" ? Number(x) : x,
        );
        const expected: unknown[] = [];
        for (let i = 0; i < 300; i++) {
          const v = valueAt(dtype, i, versionAt(label, i));
          if (dtype.startsWith("complex")) expected.push(v, -(v as number));
          else expected.push(dtype === "bool" ? Number(v) : v);
        }
        expect(values, dtype).toEqual(expected);
      }
      const sharded = await openArray(session.store, { path: "sharded" });
      const part = await sharded.get([slice(10, 20), slice(30, 34)]);
      const want: number[] = [];
      for (let r = 10; r < 20; r++)
        for (let c = 30; c < 34; c++) want.push(shardedAt(label === "c3" ? "c1" : label, r, c));
      expect(Array.from(part.data as Int32Array)).toEqual(want);
    });
  },
);

import path from "node:path";
import { pathToFileURL } from "node:url";
import { IcechunkRefNotFoundError, IcechunkRepositoryNotFoundError } from "@z/store-icechunk";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { open, openArray, openGroup, openIcechunk, resolveStore, StoreError } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type CommitLabel,
  type OfficialRepo,
  officialRepositoryIn,
  valueAt,
  versionAt,
} from "./official-on-disk.js";

/** The int32 array's values as commit `label` left them. */
const int32At = (label: CommitLabel) =>
  Array.from({ length: 300 }, (_, i) => valueAt("int32", i, versionAt(label, i)));

async function int32(location: string): Promise<number[]> {
  const arr = await openArray(location, { path: "numeric/int32" });
  return Array.from((await arr.get()).data as Int32Array);
}

describe.each([1, 2] as const)(
  "icechunk+ locations of a spec version %i repository the official implementation wrote",
  (specVersion) => {
    const { dir, remove } = tempDir("z-icechunk-locations-");
    const repo = path.join(dir, "repo.icechunk");
    let written: OfficialRepo;
    let server: TestHttpServer;
    beforeAll(async () => {
      written = await officialRepositoryIn(repo, specVersion);
      server = await startTestHttpServer({ root: dir });
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      remove();
    });

    it("opens branch main through a file: URL, a path and an http URL", async () => {
      const locations = [
        `icechunk+${pathToFileURL(repo).href}`,
        `icechunk+${repo}`,
        `icechunk+${server.url}repo.icechunk`,
      ];
      for (const location of locations) {
        expect(await int32(location), location).toEqual(int32At("c2"));
        const root = await openGroup(location);
        expect(root.attrs, location).toEqual({ title: "interop", commit: 1 });
      }
      // The http location read the repository from the server.
      expect(server.requests.some((r) => r.path.startsWith("repo.icechunk/snapshots/"))).toBe(true);
    });

    it("reads a branch, a tag or a snapshot named by #ref, and a branch as of a time", async () => {
      const base = `icechunk+${server.url}repo.icechunk`;
      const { c1, c2, c3 } = written.snapshots;
      expect(await int32(`${base}#ref=dev`)).toEqual(int32At("c3"));
      expect(await int32(`${base}#ref=v1`)).toEqual(int32At("c1"));
      expect(await int32(`${base}#ref=v2`)).toEqual(int32At("c2"));
      expect(await int32(`${base}#ref=${c1}`)).toEqual(int32At("c1"));
      expect(await int32(`${base}#ref=${c3}`)).toEqual(int32At("c3"));
      const c1Time = written.writtenAt[c1];
      expect(await int32(`${base}#asOf=${encodeURIComponent(c1Time)}`)).toEqual(int32At("c1"));
      expect(
        await int32(`${base}#ref=main&asOf=${encodeURIComponent(written.writtenAt[c2])}`),
      ).toEqual(int32At("c2"));
      // A node deleted by c2 is there at v1 only.
      await expect(open(`${base}#ref=v1`, { path: "doomed" })).resolves.toBeDefined();
      await expect(open(base, { path: "doomed" })).rejects.toThrow();
    });

    it("openIcechunk takes ref and asOf as options, before the location's own", async () => {
      const location = `icechunk+${pathToFileURL(repo).href}#ref=dev`;
      const { repository, session } = await openIcechunk(location, { ref: "v1" });
      expect(session.snapshotId).toBe(written.snapshots.c1);
      expect((await repository.ancestry(session.snapshotId)).map((s) => s.id)).toEqual(
        written.ancestry.v1,
      );
      const dev = await openIcechunk(location);
      expect(dev.session.snapshotId).toBe(written.snapshots.c3);
      const old = await openIcechunk(location, {
        asOf: new Date(written.writtenAt[written.snapshots.c1]),
      });
      expect(old.session.snapshotId).toBe(written.snapshots.c1);
    });

    it("refuses a ref that names nothing, asOf on a tag, and malformed suffixes", async () => {
      const base = `icechunk+${repo}`;
      await expect(resolveStore(`${base}#ref=nope`)).rejects.toThrow(IcechunkRefNotFoundError);
      await expect(resolveStore(`${base}#ref=nope`)).rejects.toThrow(/not a 20-character/);
      await expect(resolveStore(`${base}#ref=gone`)).rejects.toThrow(IcechunkRefNotFoundError);
      await expect(resolveStore(`${base}#ref=v1&asOf=2020-01-01T00:00:00Z`)).rejects.toThrow(
        /it is a tag, and asOf takes only a branch/,
      );
      await expect(resolveStore(`${base}#asOf=yesterday`)).rejects.toThrow(StoreError);
      await expect(resolveStore(`${base}#asOf=yesterday`)).rejects.toThrow(
        /"yesterday" is not a date/,
      );
      await expect(resolveStore(`${base}#branch=dev`)).rejects.toThrow(/unknown option "branch"/);
      await expect(resolveStore(`${base}#asOf=1990-01-01T00:00:00Z`)).rejects.toThrow(
        /has no snapshot that old/,
      );
      await expect(resolveStore(`icechunk+${dir}`)).rejects.toThrow(
        IcechunkRepositoryNotFoundError,
      );
      await expect(openIcechunk(repo)).rejects.toThrow(/not an Icechunk location/);
      await expect(resolveStore("icechunk+")).rejects.toThrow(/names no repository/);
    });
  },
);

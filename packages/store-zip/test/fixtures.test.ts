import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { collectKeys } from "@z/store-core";
import { expectBytes } from "@z/store-core/testing";
import { HttpStore } from "@z/store-http";
import { ZipStore } from "@z/store-zip";
import { openZipFile } from "@z/store-zip/node";
import { fixturePath, haveFixtures, startTestHttpServer, type TestHttpServer } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const suite = "zip fixtures (zarrita v2/v3 archives)";
const present = haveFixtures(suite);

/** Every file under a folder, as store keys. */
function walk(dir: string, base = dir, out = new Map<string, string>()): Map<string, string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, base, out);
    else out.set(path.relative(base, full).split(path.sep).join("/"), full);
  }
  return out;
}

const ARCHIVES = present
  ? ["v2", "v3"].flatMap((version) =>
      readdirSync(fixturePath("zarrita", version))
        .filter((name) => name.endsWith(".zip"))
        .map((name) => ({
          version,
          name,
          prefix: name.includes("from_parent") ? "data.zarr/" : "",
        })),
    )
  : [];

describe.skipIf(!present)(suite, () => {
  let server: TestHttpServer;
  beforeAll(async () => {
    server = await startTestHttpServer({ root: fixturePath("zarrita") });
  });
  afterAll(() => server?.stop());

  const opened = {
    "local file": (a: (typeof ARCHIVES)[0]) =>
      openZipFile(fixturePath("zarrita", a.version, a.name)),
    HTTP: (a: (typeof ARCHIVES)[0]) =>
      ZipStore.fromStore(new HttpStore(`${server.url}${a.version}/`), a.name),
  };

  for (const archive of ARCHIVES) {
    for (const [how, open] of Object.entries(opened)) {
      it(`${archive.version}/${archive.name} over ${how}: detects the root, lists and reads every file of data.zarr`, async () => {
        const expected = walk(fixturePath("zarrita", archive.version, "data.zarr"));
        const store = await open(archive);
        try {
          expect(store.prefix).toBe(archive.prefix);
          expect(await collectKeys(store.list())).toEqual([...expected.keys()].sort());
          const root = await store.listDir("");
          expect(root.prefixes).toContain("my group with spaces/");
          for (const [key, file] of expected) {
            const bytes = new Uint8Array(readFileSync(file));
            expectBytes(await store.get(key), bytes, key);
            if (bytes.length > 4) {
              const range = { offset: 2, length: bytes.length - 4 };
              expectBytes(await store.get(key, { range }), bytes.subarray(2, -2), `${key} middle`);
              expectBytes(
                await store.get(key, { range: { suffix: 3 } }),
                bytes.subarray(-3),
                `${key} suffix`,
              );
            }
          }
          expect(await store.get("missing/zarr.json")).toBeUndefined();
        } finally {
          await store.close();
        }
      });
    }
  }

  it("over HTTP, opening costs one suffix read; each stored entry then one request", async () => {
    server.reset();
    const store = await ZipStore.fromStore(
      new HttpStore(`${server.url}v3/`),
      "data.uncompressed.zarr.zip",
    );
    expect(server.requests.map((r) => [r.method, r.range, r.status])).toEqual([
      ["GET", "bytes=-65577", 206],
    ]);
    const size = statSync(fixturePath("zarrita", "v3", "data.uncompressed.zarr.zip")).size;
    expect(server.bytesSent).toBe(Math.min(size, 22 + 0xffff + 20));
    server.reset();
    const key = "1d.contiguous.compressed.sharded.i4/c/0";
    const shard = await store.get(key);
    expect(server.requests).toHaveLength(1);
    server.reset();
    const part = await store.get(key, { range: { offset: 8, length: 16 } });
    expectBytes(part, shard!.subarray(8, 24));
    expect(server.requests.map((r) => r.range)).toEqual([
      `bytes=${store.entry(key)!.dataOffset! + 8}-${store.entry(key)!.dataOffset! + 23}`,
    ]);
    expect(server.bytesSent).toBe(16);
  });
});

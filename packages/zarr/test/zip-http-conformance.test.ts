import { readdirSync } from "node:fs";
import {
  deferredReason,
  type ExpectedArray,
  expectedArrays,
  fixturePath,
  haveFixtures,
  startTestHttpServer,
  type TestHttpServer,
  toFixtureEncoding,
} from "@z/test-utils";
import { HttpStore, openArray, openZipFile, type Readable, ZipStore } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The zarrita fixture hierarchies read from their zip copies (local files, and over HTTP by
 * range requests) and from their folders over HTTP, served by a real server on 127.0.0.1:
 * every array must read as zarr-python read it.
 */
const suite = "fixture conformance through zip and HTTP";
const entries = haveFixtures(suite)
  ? expectedArrays().filter((e) => e.label.startsWith("zarrita/"))
  : [];
const included = entries.filter((e) => deferredReason(e) === undefined);
const excluded = entries.filter((e) => deferredReason(e) !== undefined);

/** The places each version's hierarchy is read from. */
function sourcesOf(
  version: string,
): { name: string; open: (server: TestHttpServer) => Promise<Readable> }[] {
  const zips = readdirSync(fixturePath("zarrita", version)).filter((name) => name.endsWith(".zip"));
  return [
    ...zips.map((zip) => ({
      name: `${zip} (file)`,
      open: () => openZipFile(fixturePath("zarrita", version, zip)),
    })),
    ...zips.map((zip) => ({
      name: `${zip} (HTTP)`,
      open: (server: TestHttpServer) =>
        ZipStore.fromStore(new HttpStore(`${server.url}${version}/`), zip),
    })),
    {
      name: "data.zarr (HTTP)",
      open: async (server: TestHttpServer) => new HttpStore(`${server.url}${version}/data.zarr/`),
    },
  ];
}

const cases = ["v2", "v3"].flatMap((version) =>
  entries.length === 0
    ? []
    : sourcesOf(version).flatMap((source) =>
        included
          .filter((e) => e.label.startsWith(`zarrita/${version}/`))
          .map(
            (entry) =>
              [`${version}/${source.name}: ${entry.path}`, version, source, entry] as const,
          ),
      ),
);

describe.skipIf(entries.length === 0)(suite, () => {
  let server: TestHttpServer;
  const stores = new Map<string, Promise<Readable>>();
  let checked = 0;
  beforeAll(async () => {
    server = await startTestHttpServer({ root: fixturePath("zarrita") });
  });
  afterAll(async () => {
    for (const store of stores.values())
      await ((await store) as { close?: () => Promise<void> }).close?.();
    await server.stop();
    console.log(
      `[${suite}] checked ${checked} array reads (${included.length} arrays x their sources); excluded ${excluded.length} arrays: ` +
        [...new Set(excluded.map((e) => deferredReason(e)))].join(", "),
    );
  });

  it.each(cases)("%s", async (_label, version, source, entry: ExpectedArray) => {
    const id = `${version}/${source.name}`;
    if (!stores.has(id)) stores.set(id, source.open(server));
    const store = await stores.get(id)!;
    const array = await openArray(store, { path: entry.path });
    const result = await array.get();
    expect(result.shape).toEqual(entry.shape);
    const values = Array.from({ length: result.shape.reduce((a, b) => a * b, 1) }, (_, i) =>
      toFixtureEncoding(array.dataType.toJsonElement(array.dataType.getElement(result.data, i))),
    );
    expect(values).toEqual(entry.values);
    checked++;
  });
});

import { createArray, openArray } from "@z/array";
import { slice } from "@z/indexing";
import { HttpStore } from "@z/store-http";
import { startTestHttpServer, type TestHttpServer, tempDir } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * Two HttpStore objects on one server stand for two machines: they share no lock, so only
 * If-Match on the server keeps their updates of shared chunks and shards.
 */

let sandbox: { dir: string; remove: () => void };
let server: TestHttpServer;
beforeAll(async () => {
  sandbox = tempDir("z-array-http-writes-");
  server = await startTestHttpServer({ root: sandbox.dir, writable: true });
});
afterAll(async () => {
  await server.stop();
  sandbox.remove();
});

const machine = () => new HttpStore(server.url, { writable: true, conditionalWrites: true });

describe("writers on two machines over HTTP with conditional writes", () => {
  for (const [name, layout] of [
    ["plain", { chunks: [4, 6] }],
    ["sharded", { shards: [4, 6], chunks: [2, 3] }],
  ] as const) {
    it(`${name}: every row written, none lost`, async () => {
      server.reset();
      const path = `rows-${name}`;
      await createArray(machine(), { path, shape: [8, 6], ...layout, dtype: "int32" });
      const one = await openArray(machine(), { path });
      const two = await openArray(machine(), { path });
      await Promise.all(
        Array.from({ length: 8 }, (_, row) =>
          (row % 2 ? one : two).set([slice(row, row + 1), null], row + 1),
        ),
      );
      const { data } = await (await openArray(machine(), { path })).get();
      expect(Array.from(data as Int32Array)).toEqual(
        Array.from({ length: 48 }, (_, i) => Math.floor(i / 6) + 1),
      );
      expect(server.requests.some((r) => r.status === 412)).toBe(true);
    });
  }
});

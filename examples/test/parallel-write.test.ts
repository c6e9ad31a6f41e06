import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { S3Store } from "@z/store-s3";
import { radosgwMissing, startRadosgw, startS3rver, type TestS3Server } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, test } from "vitest";

/*
 * examples/parallel-write.mjs with 4 writer processes against real S3 servers on 127.0.0.1:
 * aligned bands on s3rver and radosgw; unaligned bands, which need conditional writes, on
 * radosgw (s3rver ignores If-Match / If-None-Match, so it cannot keep such writers apart).
 * The example runs on the built packages (`pnpm build`, which `pnpm test` does first).
 */

const root = path.join(import.meta.dirname, "..", "..");
const script = path.join(root, "examples", "parallel-write.mjs");
const built = existsSync(path.join(root, "packages", "zarr", "dist", "node.js"));

interface Outcome {
  code: number;
  result: { processes?: number; aligned?: boolean; wrong: number; ok: boolean; rows: number };
  stderr: string;
}

function run(server: TestS3Server, ...args: string[]): Promise<Outcome> {
  const env = {
    ...process.env,
    AWS_ENDPOINT_URL: server.endpoint,
    AWS_ACCESS_KEY_ID: server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
    AWS_REGION: "us-east-1",
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { env, timeout: 240_000 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: number }).code ?? 1) : 0;
        const last = stdout.trim().split("\n").at(-1) ?? "{}";
        resolve({ code, result: JSON.parse(last), stderr });
      },
    );
  });
}

function suite(name: string, start: () => Promise<TestS3Server>, unaligned: boolean) {
  describe.skipIf(!built)(`${name}${built ? "" : " (skipped: run pnpm build first)"}`, () => {
    let server: TestS3Server;
    beforeAll(async () => {
      server = await start();
      await server.createBucket("parallel");
    }, 180_000);
    afterAll(async () => server?.stop());

    test("4 processes writing shard-aligned bands: every element is its writer's", async () => {
      const outcome = await run(server, "s3://parallel/aligned.zarr", "--processes", "4");
      // (s3rver's wrong suffix ranges cost a warning on standard error, nothing else.)
      expect(outcome.stderr).not.toMatch(/error/i);
      expect(outcome.result).toMatchObject({
        processes: 4,
        aligned: true,
        rows: 64,
        wrong: 0,
        ok: true,
      });
      expect(outcome.code).toBe(0);
    }, 240_000);

    if (unaligned)
      test("4 processes writing bands that share shards: conditional writes lose nothing", async () => {
        const outcome = await run(
          server,
          "s3://parallel/unaligned.zarr",
          "--processes",
          "4",
          "--unaligned",
        );
        expect(outcome.result).toMatchObject({ processes: 4, aligned: false, wrong: 0, ok: true });
        expect(outcome.code).toBe(0);
      }, 240_000);

    test("the check finds an element that is not its writer's", async () => {
      const location = "s3://parallel/aligned.zarr";
      // Remove one shard: its elements read as the fill value 0.
      const store = new S3Store(location, {
        endpoint: server.endpoint,
        credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
        env: {},
      });
      await store.delete("c/1/1");
      const outcome = await run(server, location, "--check");
      expect(outcome.result).toMatchObject({ ok: false, wrong: 16 * 32 });
      expect(outcome.code).toBe(1);
    }, 240_000);
  });
}

suite("parallel-write on s3rver", startS3rver, false);
const missing = radosgwMissing();
if (missing === undefined) suite("parallel-write on radosgw", startRadosgw, true);
else
  describe.skip(`parallel-write on radosgw (skipped: ${missing})`, () =>
    test("needs Ceph", () => {}));

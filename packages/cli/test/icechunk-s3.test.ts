import { startS3rver, type TestS3Server, tempDir } from "@z/test-utils";
import { S3Store } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type OfficialRepo,
  officialRepositoryIn,
  valueAt,
  versionAt,
} from "../../zarr/test/icechunk/official-on-disk.js";
import { runMain } from "./support/run-main.js";

/*
 * icechunk+s3://: the official implementation's repository uploaded to a local S3 server,
 * read by `zarr log` and `zarr get --ref` with the credentials and endpoint from the environment.
 */
describe("icechunk+s3:// through an S3 server", () => {
  let server: TestS3Server;
  let written: OfficialRepo;
  const saved: Record<string, string | undefined> = {};
  const { dir, remove } = tempDir("z-cli-icechunk-s3-");

  beforeAll(async () => {
    server = await startS3rver();
    await server.createBucket("ice");
    const env = {
      AWS_ENDPOINT_URL: server.endpoint,
      AWS_ACCESS_KEY_ID: server.accessKeyId,
      AWS_SECRET_ACCESS_KEY: server.secretAccessKey,
      AWS_REGION: "us-east-1",
    };
    for (const [k, v] of Object.entries(env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    written = await officialRepositoryIn(dir, 2);
    const bucket = new S3Store("s3://ice/weather.icechunk");
    for (const [key, bytes] of written.files) await bucket.set(key, bytes);
  }, 180_000);
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await server?.stop();
    remove();
  });

  it("zarr log and zarr get --ref read the repository in the bucket", async () => {
    const location = "icechunk+s3://ice/weather.icechunk";
    const log = await runMain("log", location, "--ref", "dev", "--json");
    expect(log.code, log.stderr).toBe(0);
    expect((JSON.parse(log.stdout) as { id: string }[]).map((s) => s.id)).toEqual(
      written.ancestry.dev,
    );
    const get = await runMain("get", location, "--path", "numeric/int32", "--ref", "v1", "--json");
    expect(get.code, get.stderr).toBe(0);
    expect(JSON.parse(get.stdout).values).toEqual(
      Array.from({ length: 300 }, (_, i) => valueAt("int32", i, versionAt("c1", i))),
    );
  });
});

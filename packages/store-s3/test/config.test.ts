import { S3ConfigError, S3Store } from "@z/store-s3";
import { describe, expect, test } from "vitest";

/* Where requests go and how they are authorised, from locations, options and the environment. */

describe("addressing and endpoints", () => {
  test("AWS endpoints are virtual-hosted, in the region from AWS_REGION", () => {
    const store = new S3Store("s3://my-bucket/a/b.zarr", { env: { AWS_REGION: "eu-west-1" } });
    expect(store.bucketUrl).toBe("https://my-bucket.s3.eu-west-1.amazonaws.com/");
    expect(store.url).toBe("https://my-bucket.s3.eu-west-1.amazonaws.com/a/b.zarr/");
    expect(store.prefix).toBe("a/b.zarr/");
  });

  test("bucket names with dots go path-style on AWS (their TLS certificates do not match)", () => {
    const store = new S3Store("s3://my.bucket/x", { env: {} });
    expect(store.bucketUrl).toBe("https://s3.us-east-1.amazonaws.com/my.bucket/");
  });

  test("other endpoints go path-style; AWS_ENDPOINT_URL and AWS_S3_FORCE_PATH_STYLE are read", () => {
    const env = { AWS_ENDPOINT_URL: "http://127.0.0.1:9000" };
    expect(new S3Store("s3://bkt/p", { env }).url).toBe("http://127.0.0.1:9000/bkt/p/");
    const s3Only = { ...env, AWS_ENDPOINT_URL_S3: "https://minio.example:9443/base" };
    expect(new S3Store("s3://bkt", { env: s3Only }).url).toBe(
      "https://minio.example:9443/base/bkt/",
    );
    const forced = new S3Store("s3://bkt/p", { env: { AWS_S3_FORCE_PATH_STYLE: "true" } });
    expect(forced.bucketUrl).toBe("https://s3.us-east-1.amazonaws.com/bkt/");
    const virtual = new S3Store("s3://bkt/p", {
      endpoint: "http://localhost:9000",
      addressing: "virtual",
      env,
    });
    expect(virtual.url).toBe("http://bkt.localhost:9000/p/");
    expect(() => new S3Store("s3://bkt/p", { env, addressing: "virtual" })).toThrow(
      /Virtual-hosted addressing needs a host name, not the address 127.0.0.1/,
    );
  });

  test("gs:// goes to storage.googleapis.com, path-style, or to STORAGE_EMULATOR_HOST", () => {
    expect(new S3Store("gs://bucket/x.zarr", { env: {} }).url).toBe(
      "https://storage.googleapis.com/bucket/x.zarr/",
    );
    const emulated = new S3Store("gs://bucket", {
      env: { STORAGE_EMULATOR_HOST: "localhost:4443" },
    });
    expect(emulated.url).toBe("http://localhost:4443/bucket/");
  });

  test("the options' bucket and prefix stand in for a location; path segments are encoded", () => {
    const store = new S3Store({ bucket: "bkt", prefix: "/my data/x.zarr/", env: {} });
    expect(store.url).toBe("https://bkt.s3.us-east-1.amazonaws.com/my%20data/x.zarr/");
  });
});

describe("bad locations and options are S3ConfigErrors that say what", () => {
  test.each([
    ["s3:/bucket", /Not a bucket location/],
    ["s3://", /Not a bucket location/],
    ["s3://UPPER_and-ok/../x", /Invalid path/],
    ["s3://a/", /Invalid bucket name "a"/],
    ["http://bucket/x", /Not a bucket location/],
  ])("%s", (location, message) => {
    expect(() => new S3Store(location, { env: {} })).toThrow(S3ConfigError);
    expect(() => new S3Store(location, { env: {} })).toThrow(message);
  });

  test("half a key pair in the environment", () => {
    expect(() => new S3Store("s3://bucket", { env: { AWS_ACCESS_KEY_ID: "AK" } })).toThrow(
      /AWS_SECRET_ACCESS_KEY is not set while AWS_ACCESS_KEY_ID is/,
    );
    expect(() => new S3Store("gs://bucket", { env: { GOOGLE_SECRET_ACCESS_KEY: "s" } })).toThrow(
      /GOOGLE_ACCESS_KEY_ID is not set/,
    );
  });

  test("an endpoint that is not http(s)", () => {
    expect(() => new S3Store("s3://bucket", { endpoint: "ftp://x", env: {} })).toThrow(
      /not an http\(s\) URL/,
    );
  });
});

describe("conditional writes", () => {
  test("on by default for s3://, off for gs:// and for read-only stores", () => {
    expect(new S3Store("s3://bucket", { env: {} }).conditionalWrites).toBe(true);
    expect(new S3Store("gs://bucket", { env: {} }).conditionalWrites).toBe(false);
    const readOnly = new S3Store("s3://bucket", { env: {}, writable: false });
    expect(readOnly.conditionalWrites).toBe(false);
    expect(readOnly.getVersioned).toBeUndefined();
  });
});

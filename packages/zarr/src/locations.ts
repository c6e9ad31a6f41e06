import { type Readable, registerStore } from "@z/store-core";
import { HttpStore } from "@z/store-http";
import type { ZipStore } from "@z/store-zip";

/** Whether a location names a zip archive (`.zip`, query string aside). */
export function isZipLocation(location: string): boolean {
  return /\.zip$/i.test(location.split(/[?#]/)[0]);
}

/**
 * A zip archive at an http(s) URL, read by ranges through the folder that holds it. The zip
 * reader loads with the first archive opened, so apps that never open one do not carry it.
 */
export async function openZipUrl(location: string): Promise<ZipStore> {
  const { ZipStore } = await import("@z/store-zip");
  const url = new URL(location);
  const slash = url.pathname.lastIndexOf("/");
  const name = decodeURIComponent(url.pathname.slice(slash + 1));
  url.pathname = url.pathname.slice(0, slash + 1);
  url.hash = "";
  return ZipStore.fromStore(new HttpStore(url.href), name);
}

/** An http(s) URL of a hierarchy's folder, or of a `.zip`. */
async function openUrl(location: string): Promise<Readable> {
  return isZipLocation(location) ? openZipUrl(location) : new HttpStore(location);
}

registerStore("http", openUrl);
registerStore("https", openUrl);
// `zip:<url>`: an archive at a URL whatever its name (Node also takes `zip:<path>`).
registerStore("zip", (location) => openZipUrl(location.slice("zip:".length)));

// Object stores: `s3://bucket/path` (AWS or any S3-compatible service) and `gs://bucket/path`
// (GCS's XML API), configured by the environment (AWS_ACCESS_KEY_ID, AWS_REGION,
// AWS_ENDPOINT_URL...; GOOGLE_OAUTH_TOKEN or the GOOGLE_* HMAC keys).
async function openBucket(location: string): Promise<Readable> {
  const { S3Store } = await import("@z/store-s3");
  return new S3Store(location);
}
registerStore("s3", openBucket);
registerStore("gs", openBucket);

// `icechunk+<location>`: the Icechunk repository there, at branch `main` (or `#ref=…&asOf=…`).
// Its reader loads with the first such location.
registerStore("icechunk+", (location) =>
  import("./icechunk-location.js").then((m) => m.openIcechunkStore(location)),
);

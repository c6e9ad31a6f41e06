import { HttpError } from "@z/store-http";
import type { BucketClient } from "./bucket-client.js";
import { errorCode, escapeXml, xmlElements, xmlText } from "./bucket-client.js";

/** DeleteObjects takes at most this many keys per request. */
export const DELETE_BATCH = 1000;

/** The base64 SHA-256 of bytes (`x-amz-checksum-sha256`, which DeleteObjects requires or Content-MD5). */
async function sha256Base64(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  return btoa(String.fromCharCode(...digest));
}

/**
 * Deletes up to {@link DELETE_BATCH} full bucket keys in one DeleteObjects request (quiet mode:
 * only failures are reported). Resolves to false when the server does not offer DeleteObjects
 * (GCS's XML API, some S3 look-alikes answer 4xx to `POST ?delete`), so the caller deletes one
 * by one; rejects when it deleted some keys but not others.
 */
export async function deleteBatch(
  client: BucketClient,
  keys: readonly string[],
  signal?: AbortSignal,
): Promise<boolean> {
  const body = new TextEncoder().encode(
    `<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>${keys
      .map((key) => `<Object><Key>${escapeXml(key)}</Key></Object>`)
      .join("")}</Delete>`,
  );
  const answer = await client.request(
    "POST",
    { delete: "" },
    {
      body,
      headers: {
        "content-type": "application/xml",
        "x-amz-checksum-sha256": await sha256Base64(body),
        "x-amz-sdk-checksum-algorithm": "SHA256",
      },
      signal,
    },
  );
  if (answer.status >= 400 && answer.status < 500 && answer.status !== 403) return false;
  if (answer.status !== 200) throw client.failure("POST", answer, `deleting ${keys.length} keys`);
  const errors = xmlElements(answer.text, "Error");
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new HttpError(
      "POST",
      client.bucketUrl,
      200,
      `${errors.length} of ${keys.length} keys were not deleted; first ${JSON.stringify(xmlText(first, "Key"))}: ${errorCode(first)}`,
    );
  }
  return true;
}

import { normalizeEmptyRangeAnswer } from "./empty-range-answer.js";
import { type SharedKeySigner, stringToSign } from "./shared-key.js";

/** The Blob service REST version the store speaks (sent as `x-ms-version`). */
export const AZURE_API_VERSION = "2023-11-03";

/** How requests are authorised. */
export type AzureAuth =
  | { kind: "shared-key"; signer: SharedKeySigner }
  | { kind: "sas"; token: string }
  | { kind: "anonymous" };

/** The byte length of a request body the store sends (it only sends bytes or nothing). */
function bodyLength(body: unknown): number {
  if (body === undefined || body === null) return 0;
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return body.byteLength;
  if (typeof body === "string") return new TextEncoder().encode(body).length;
  throw new TypeError("The Azure store only sends byte bodies");
}

/**
 * A `fetch` that authorises each request for the Blob service: it adds `x-ms-version`, and
 * `x-ms-blob-type: BlockBlob` to blob PUTs, then either appends the SAS token to the URL or
 * signs the request with SharedKey (a fresh `x-ms-date` each time, so retries are signed anew),
 * or leaves it anonymous. Content-Length is signed from the body but not set by hand: browsers
 * forbid setting it, and fetch sends the same value.
 */
export function azureFetch(
  base: typeof fetch,
  auth: AzureAuth,
  blobPut: (url: URL) => boolean,
): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init.method ?? "GET").toUpperCase();
    const headers = new Headers(init.headers);
    headers.set("x-ms-version", AZURE_API_VERSION);
    if (method === "PUT" && !headers.has("x-ms-blob-type") && blobPut(url))
      headers.set("x-ms-blob-type", "BlockBlob");
    if (auth.kind === "sas") {
      for (const [name, value] of new URLSearchParams(auth.token))
        url.searchParams.set(name, value);
    } else if (auth.kind === "shared-key") {
      headers.set("x-ms-date", new Date().toUTCString());
      const signed = new Headers(headers);
      const length = bodyLength(init.body);
      if (length > 0 || method === "PUT") signed.set("content-length", String(length));
      const text = stringToSign(method, url, signed, auth.signer.accountName);
      headers.set("authorization", await auth.signer.authorization(text));
    }
    return normalizeEmptyRangeAnswer(await base(url.href, { ...init, method, headers }));
  };
}

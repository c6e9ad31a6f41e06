import type { S3Auth } from "./config.js";
import { EMPTY_PAYLOAD_HASH, sha256Hex, signedHeaders } from "./sigv4.js";

/**
 * A `fetch` that authorises each request just before it is sent: SigV4 over the method, URL,
 * headers and body hash (so every retry is signed afresh with the time of its sending), a
 * bearer token, or nothing for anonymous access.
 */
export function signingFetch(auth: S3Auth, inner: typeof fetch): typeof fetch {
  if (auth.kind === "anonymous") return inner;
  return async (input, init = {}) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init.headers);
    if (auth.kind === "bearer") {
      headers.set("authorization", `Bearer ${await auth.token()}`);
    } else {
      const body = init.body as Uint8Array | undefined | null;
      const payloadHash = body ? await sha256Hex(body) : EMPTY_PAYLOAD_HASH;
      const toSign: Record<string, string> = {};
      headers.forEach((value, name) => {
        toSign[name] = value;
      });
      const added = await signedHeaders(
        { method: init.method ?? "GET", url, headers: toSign, payloadHash },
        await auth.credentials(),
        auth.scope,
      );
      for (const [name, value] of Object.entries(added)) headers.set(name, value);
    }
    return inner(url, { ...init, headers });
  };
}

/**
 * AWS Signature Version 4 (header form) on WebCrypto, so it runs unchanged in Node.js and
 * browsers. Checked against AWS's published SigV4 test suite (test/fixtures/aws4_testsuite).
 */

/** The keys a request is signed with. */
export interface S3Credentials {
  /** The access key id (`AWS_ACCESS_KEY_ID`; a GCS HMAC key's access id). */
  accessKeyId: string;
  /** The secret access key (`AWS_SECRET_ACCESS_KEY`; a GCS HMAC key's secret). */
  secretAccessKey: string;
  /** A temporary credential's session token (`AWS_SESSION_TOKEN`), sent as `X-Amz-Security-Token`. */
  sessionToken?: string;
}

/** What a request is signed for. */
export interface SigningScope {
  /** The region (`us-east-1`; `auto` for GCS and R2). */
  region: string;
  /** The service name (`s3`). */
  service: string;
}

/** A request to sign: the header names in any case, values as they will be sent. */
export interface RequestToSign {
  method: string;
  /** The full URL (path and query percent-encoded as they will be sent). */
  url: string;
  /** The headers that will be sent (besides `Host`, which comes from the URL). */
  headers: Record<string, string>;
  /** The hex SHA-256 of the body, or `UNSIGNED-PAYLOAD`. */
  payloadHash: string;
}

/** The SHA-256 of nothing: the payload hash of requests without a body. */
export const EMPTY_PAYLOAD_HASH =
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

const encoder = new TextEncoder();

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The hex SHA-256 of bytes or a string (UTF-8). */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return hex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

async function hmac(key: Uint8Array | ArrayBuffer, data: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(data));
}

/**
 * RFC 3986 percent-encoding as SigV4 wants it: every byte except `A-Z a-z 0-9 - _ . ~` (and
 * `/` when `keepSlash`) as `%XY`, upper-case hex.
 */
export function uriEncode(text: string, keepSlash = false): string {
  let out = "";
  for (const byte of encoder.encode(text)) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-_.~]/.test(c) || (keepSlash && c === "/")) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Percent-decoding that leaves a malformed escape as it is rather than throwing. */
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The canonical URI: each path segment decoded and encoded again, so `(` and `%28` sign alike,
 * as S3 computes it (S3 neither normalises `.` segments nor encodes twice).
 */
export function canonicalUri(pathname: string): string {
  if (pathname === "") return "/";
  return pathname
    .split("/")
    .map((segment) => uriEncode(decode(segment)))
    .join("/");
}

/**
 * The canonical query string: every `name=value` pair decoded (`+` is a plus, not a space),
 * encoded again, and sorted by name then value; a bare `name` is `name=`.
 */
export function canonicalQuery(search: string): string {
  const query = search.startsWith("?") ? search.slice(1) : search;
  if (query === "") return "";
  const pairs = query
    .split("&")
    .filter((part) => part !== "")
    .map((part) => {
      const eq = part.indexOf("=");
      const name = eq === -1 ? part : part.slice(0, eq);
      const value = eq === -1 ? "" : part.slice(eq + 1);
      return [uriEncode(decode(name)), uriEncode(decode(value))] as const;
    });
  pairs.sort(([an, av], [bn, bv]) => (an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

/** Header values trimmed, inner runs of spaces collapsed to one (outside nothing else). */
function canonicalHeaderValue(value: string): string {
  return value.trim().replace(/\s+/g, " ");
}

/** The lower-cased, sorted headers that are signed (all given, plus `host`). */
function signedHeaderList(host: string, headers: Record<string, string>): [string, string][] {
  const all = new Map<string, string>([["host", host]]);
  for (const [name, value] of Object.entries(headers))
    all.set(name.toLowerCase(), canonicalHeaderValue(value));
  return [...all.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The canonical request of SigV4's first step, and the signed header names. */
export function canonicalRequest(request: RequestToSign): {
  canonical: string;
  signedHeaders: string;
} {
  const url = new URL(request.url);
  const headers = signedHeaderList(url.host, request.headers);
  const signedHeaders = headers.map(([name]) => name).join(";");
  const canonical = [
    request.method.toUpperCase(),
    canonicalUri(url.pathname),
    canonicalQuery(url.search),
    ...headers.map(([name, value]) => `${name}:${value}`),
    "",
    signedHeaders,
    request.payloadHash,
  ].join("\n");
  return { canonical, signedHeaders };
}

/** `20150830T123600Z`: the `X-Amz-Date` form of a time. */
export function amzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/** The credential scope: `<date>/<region>/<service>/aws4_request`. */
export function credentialScope(datetime: string, scope: SigningScope): string {
  return `${datetime.slice(0, 8)}/${scope.region}/${scope.service}/aws4_request`;
}

/** The string to sign of SigV4's second step. */
export async function stringToSign(
  canonical: string,
  datetime: string,
  scope: SigningScope,
): Promise<string> {
  return [
    "AWS4-HMAC-SHA256",
    datetime,
    credentialScope(datetime, scope),
    await sha256Hex(canonical),
  ].join("\n");
}

/** The hex signature of a string to sign: the key derived from the secret, date, region, service. */
export async function signature(
  secretAccessKey: string,
  datetime: string,
  scope: SigningScope,
  toSign: string,
): Promise<string> {
  let key = await hmac(encoder.encode(`AWS4${secretAccessKey}`), datetime.slice(0, 8));
  key = await hmac(key, scope.region);
  key = await hmac(key, scope.service);
  key = await hmac(key, "aws4_request");
  return hex(await hmac(key, toSign));
}

/**
 * The `Authorization` header of a request whose headers already hold `X-Amz-Date` (and
 * `X-Amz-Security-Token` when there is a session token; both are signed like any header).
 */
export async function authorization(
  request: RequestToSign,
  credentials: S3Credentials,
  scope: SigningScope,
  datetime: string,
): Promise<string> {
  const { canonical, signedHeaders } = canonicalRequest(request);
  const toSign = await stringToSign(canonical, datetime, scope);
  const sig = await signature(credentials.secretAccessKey, datetime, scope, toSign);
  return (
    `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${credentialScope(datetime, scope)}, ` +
    `SignedHeaders=${signedHeaders}, Signature=${sig}`
  );
}

/**
 * The headers to add to a request to sign it: `X-Amz-Date`, `X-Amz-Content-Sha256`,
 * `X-Amz-Security-Token` (with a session token) and `Authorization`.
 */
export async function signedHeaders(
  request: Omit<RequestToSign, "payloadHash"> & { payloadHash?: string },
  credentials: S3Credentials,
  scope: SigningScope,
  now: Date = new Date(),
): Promise<Record<string, string>> {
  const datetime = amzDate(now);
  const payloadHash = request.payloadHash ?? EMPTY_PAYLOAD_HASH;
  const added: Record<string, string> = {
    "x-amz-date": datetime,
    "x-amz-content-sha256": payloadHash,
  };
  if (credentials.sessionToken) added["x-amz-security-token"] = credentials.sessionToken;
  const headers = { ...request.headers, ...added };
  added.authorization = await authorization(
    { ...request, headers, payloadHash },
    credentials,
    scope,
    datetime,
  );
  return added;
}

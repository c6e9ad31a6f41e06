import { AzureConfigError } from "./errors.js";

/** The headers whose values stand, in this order, in a SharedKey string-to-sign. */
const STANDARD_HEADERS = [
  "content-encoding",
  "content-language",
  "content-length",
  "content-md5",
  "content-type",
  "date",
  "if-modified-since",
  "if-match",
  "if-none-match",
  "if-unmodified-since",
  "range",
] as const;

/**
 * The SharedKey string-to-sign of a blob service request (service version 2015-02-21 or
 * later): the verb, the standard headers (a zero Content-Length as empty), the `x-ms-*`
 * headers sorted by name, then `/<account><encoded path>` and the query parameters, lower-cased
 * names sorted, values decoded.
 * @see https://learn.microsoft.com/rest/api/storageservices/authorize-with-shared-key
 */
export function stringToSign(
  method: string,
  url: URL,
  headers: Headers,
  accountName: string,
): string {
  const lines: string[] = [method.toUpperCase()];
  for (const name of STANDARD_HEADERS) {
    const value = headers.get(name) ?? "";
    lines.push(name === "content-length" && value === "0" ? "" : value);
  }
  const msHeaders: [string, string][] = [];
  headers.forEach((value, name) => {
    if (name.startsWith("x-ms-")) msHeaders.push([name, value.replace(/\s+/g, " ").trim()]);
  });
  msHeaders.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  let text = `${lines.join("\n")}\n`;
  for (const [name, value] of msHeaders) text += `${name}:${value}\n`;
  text += `/${accountName}${url.pathname || "/"}`;
  const params = new Map<string, string[]>();
  for (const [name, value] of url.searchParams) {
    const lower = name.toLowerCase();
    params.set(lower, [...(params.get(lower) ?? []), value]);
  }
  for (const name of [...params.keys()].sort()) {
    text += `\n${name}:${params.get(name)!.sort().join(",")}`;
  }
  return text;
}

/** An account key ready to sign with (imported once per store). */
export interface SharedKeySigner {
  /** The account the key belongs to. */
  readonly accountName: string;
  /** The `Authorization` header value for a string-to-sign. */
  authorization(text: string): Promise<string>;
}

/**
 * Imports a base64 account key for HMAC-SHA256 through WebCrypto (`crypto.subtle`), which Node
 * and browsers both have, so signing needs no Node built-in.
 * @throws AzureConfigError when the key is not base64
 */
export function sharedKeySigner(accountName: string, accountKey: string): SharedKeySigner {
  let raw: Uint8Array;
  try {
    raw = Uint8Array.from(atob(accountKey), (c) => c.charCodeAt(0));
  } catch {
    throw new AzureConfigError(
      `The account key of Azure storage account ${JSON.stringify(accountName)} is not base64`,
    );
  }
  let key: ReturnType<typeof crypto.subtle.importKey> | undefined;
  const encoder = new TextEncoder();
  return {
    accountName,
    async authorization(text) {
      key ??= crypto.subtle.importKey(
        "raw",
        raw as Uint8Array<ArrayBuffer>,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await key, encoder.encode(text)));
      let binary = "";
      for (const byte of mac) binary += String.fromCharCode(byte);
      return `SharedKey ${accountName}:${btoa(binary)}`;
    },
  };
}

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { authorization, canonicalRequest, sha256Hex, stringToSign } from "../src/sigv4.js";

/*
 * AWS's published SigV4 test suite (fixtures/aws4_testsuite, see SOURCE.md there): for each
 * request, the canonical request, the string to sign and the Authorization header must match
 * AWS's files byte for byte.
 */

const suite = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures/aws4_testsuite");
const credentials = {
  accessKeyId: "AKIDEXAMPLE",
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
};
const scope = { region: "us-east-1", service: "service" };
/** The session token of get-vanilla-with-session-token (its .creq shows it). */
const SESSION_TOKEN = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267";

interface ParsedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Parses a .req file: request line, `Name:value` lines (repeated names join with `,`), body. */
function parseRequest(text: string): ParsedRequest {
  const [head, ...rest] = text.split("\n\n");
  const [requestLine, ...headerLines] = head!.split("\n");
  const match = /^(\S+) (.+) HTTP\/1\.1$/.exec(requestLine!);
  if (!match) throw new Error(`bad request line ${requestLine}`);
  const headers: Record<string, string> = {};
  let host = "";
  for (const line of headerLines) {
    if (line === "") continue; // a trailing newline after the headers
    const colon = line.indexOf(":");
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1);
    if (name.toLowerCase() === "host") host = value;
    else headers[name] = name in headers ? `${headers[name]},${value.trim()}` : value;
  }
  return { method: match[1]!, url: `https://${host}${match[2]}`, headers, body: rest.join("\n\n") };
}

const cases = readdirSync(suite, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe("SigV4 test vectors", () => {
  test("the suite's cases are all here", () => {
    expect(cases.length).toBe(23);
  });

  for (const name of cases) {
    test(name, async () => {
      const read = (ext: string) => readFileSync(path.join(suite, name, `${name}.${ext}`), "utf8");
      const request = parseRequest(read("req"));
      if (name === "get-vanilla-with-session-token")
        request.headers["X-Amz-Security-Token"] = SESSION_TOKEN;
      const datetime = request.headers["X-Amz-Date"]!;
      const toSign = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        payloadHash: await sha256Hex(request.body),
      };
      const { canonical } = canonicalRequest(toSign);
      expect(canonical).toBe(read("creq"));
      expect(await stringToSign(canonical, datetime, scope)).toBe(read("sts"));
      expect(await authorization(toSign, credentials, scope, datetime)).toBe(read("authz"));
    });
  }
});

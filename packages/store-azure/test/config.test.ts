import {
  AZURITE_ACCOUNT_KEY,
  AzureBlobStore,
  AzureConfigError,
  parseAzureLocation,
  parseConnectionString,
} from "@z/store-azure";
import { HttpError } from "@z/store-http";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseBlobList } from "../src/list-blobs.js";
import { readBoundedText } from "../src/request.js";

describe("parseConnectionString", () => {
  test("account, key and endpoint suffix make the blob endpoint", () => {
    expect(
      parseConnectionString(
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5;EndpointSuffix=core.chinacloudapi.cn",
      ),
    ).toEqual({
      accountName: "acct",
      accountKey: "a2V5",
      sasToken: undefined,
      blobEndpoint: "https://acct.blob.core.chinacloudapi.cn",
    });
  });

  test("BlobEndpoint and SharedAccessSignature win over the defaults; key names ignore case", () => {
    const parsed = parseConnectionString(
      "blobendpoint=https://example.org/store/;SHAREDACCESSSIGNATURE=?sv=1&sig=x%2B;",
    );
    expect(parsed.blobEndpoint).toBe("https://example.org/store");
    expect(parsed.sasToken).toBe("sv=1&sig=x%2B");
  });

  test("UseDevelopmentStorage=true is Azurite's dev account", () => {
    expect(parseConnectionString("UseDevelopmentStorage=true")).toEqual({
      accountName: "devstoreaccount1",
      accountKey: AZURITE_ACCOUNT_KEY,
      blobEndpoint: "http://127.0.0.1:10000/devstoreaccount1",
    });
  });

  test("malformed strings are AzureConfigErrors that say what is wrong", () => {
    expect(() => parseConnectionString("AccountName")).toThrow(AzureConfigError);
    expect(() => parseConnectionString("AccountKey=abc")).toThrow(
      /neither AccountName nor BlobEndpoint/,
    );
  });
});

describe("parseAzureLocation", () => {
  test("az:// and abfs:// locations", () => {
    expect(parseAzureLocation("az://box/a/b.zarr")).toEqual({
      container: "box",
      path: "a/b.zarr",
      accountName: undefined,
    });
    expect(parseAzureLocation("az://box")).toEqual({
      container: "box",
      path: "",
      accountName: undefined,
    });
    expect(parseAzureLocation("abfss://box@acct.dfs.core.windows.net/x/")).toEqual({
      container: "box",
      path: "x",
      accountName: "acct",
    });
  });

  test("locations without a container, with bad segments or another scheme are refused", () => {
    expect(() => parseAzureLocation("az:///x")).toThrow(AzureConfigError);
    expect(() => parseAzureLocation("s3://box/x")).toThrow(AzureConfigError);
    expect(() => parseAzureLocation("az://box/a/../../b")).toThrow(/'..' segments/);
  });
});

describe("AzureBlobStore configuration", () => {
  test("invalid container names and non-base64 keys are AzureConfigErrors", () => {
    expect(
      () => new AzureBlobStore({ container: "Bad_Name", accountName: "a", anonymous: true }),
    ).toThrow(AzureConfigError);
    expect(
      () =>
        new AzureBlobStore({ container: "ok-name", accountName: "a", accountKey: "not base64!" }),
    ).toThrow(/not base64/);
  });

  test("no account anywhere is an AzureConfigError naming the container", () => {
    const before = process.env.AZURE_STORAGE_CONNECTION_STRING;
    const account = process.env.AZURE_STORAGE_ACCOUNT;
    delete process.env.AZURE_STORAGE_CONNECTION_STRING;
    delete process.env.AZURE_STORAGE_ACCOUNT;
    try {
      expect(() => new AzureBlobStore({ container: "box" })).toThrow(/container "box"/);
    } finally {
      if (before !== undefined) process.env.AZURE_STORAGE_CONNECTION_STRING = before;
      if (account !== undefined) process.env.AZURE_STORAGE_ACCOUNT = account;
    }
  });

  test("an account name alone means anonymous access to its public endpoint", () => {
    const store = new AzureBlobStore({ container: "box", accountName: "acct", anonymous: true });
    expect(store.endpoint).toBe("https://acct.blob.core.windows.net");
  });
});

describe("parseBlobList", () => {
  const escapeXml = (s: string) =>
    s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const name = fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" });

  test("recovers every blob name, size, prefix and marker of a List Blobs answer", () => {
    fc.assert(
      fc.property(
        fc.array(name, { maxLength: 6 }),
        fc.array(name, { maxLength: 4 }),
        fc.option(name, { nil: undefined }),
        (names, prefixes, marker) => {
          const xml =
            '<?xml version="1.0" encoding="utf-8"?><EnumerationResults ContainerName="c"><Prefix>p</Prefix><Blobs>' +
            names
              .map(
                (n, i) =>
                  `<Blob><Name>${escapeXml(n)}</Name><Properties><Etag>"0x1"</Etag><Content-Length>${i * 1000 + n.length}</Content-Length></Properties></Blob>`,
              )
              .join("") +
            prefixes
              .map((p) => `<BlobPrefix><Name>${escapeXml(`${p}/`)}</Name></BlobPrefix>`)
              .join("") +
            `</Blobs><NextMarker>${marker === undefined ? "" : escapeXml(marker)}</NextMarker></EnumerationResults>`;
          expect(parseBlobList(xml)).toEqual({
            names,
            sizes: names.map((n, i) => i * 1000 + n.length),
            prefixes: prefixes.map((p) => `${p}/`),
            nextMarker: marker,
          });
        },
      ),
    );
  });

  test("names flagged Encoded are percent-decoded", () => {
    const xml = '<Blobs><Blob><Name Encoded="true">a%01b</Name></Blob></Blobs><NextMarker/>';
    expect(parseBlobList(xml).names).toEqual(["a\u0001b"]);
  });
});

describe("readBoundedText", () => {
  test("reads answers up to the limit and refuses longer ones, declared or streamed", async () => {
    const body = "x".repeat(100);
    expect(await readBoundedText(new Response(body), "GET", "http://h/c", 100)).toBe(body);
    await expect(readBoundedText(new Response(body), "GET", "http://h/c", 99)).rejects.toThrow(
      /longer than 99 bytes/,
    );
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(64)); // endless, without a Content-Length
      },
    });
    await expect(readBoundedText(new Response(stream), "GET", "http://h/c", 1000)).rejects.toThrow(
      HttpError,
    );
  });
});

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { decodeXmlEntities, errorCode, escapeXml } from "../src/bucket-client.js";
import { parseListPage } from "../src/list-objects.js";

/* The small XML reading of ListObjectsV2, DeleteObjects and error answers. */

describe("XML text", () => {
  test("escaping then decoding gives the text back (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(decodeXmlEntities(escapeXml(text))).toBe(text);
      }),
    );
  });

  test("numeric character references, decimal and hex", () => {
    expect(decodeXmlEntities("a&#38;b&#x3C;c&#x1F600;&quot;&apos;")).toBe("a&b<c😀\"'");
  });

  test("an S3 error body says its code and message", () => {
    const body =
      '<?xml version="1.0"?><Error><Code>SlowDown</Code><Message>Reduce your request rate.</Message></Error>';
    expect(errorCode(body)).toBe("SlowDown: Reduce your request rate.");
    expect(errorCode("<html>bad gateway</html>")).toBe("<html>bad gateway</html>");
  });
});

describe("ListObjectsV2 pages", () => {
  test("url-encoded keys and prefixes are decoded, sizes read; the continuation token is kept", () => {
    const page = parseListPage(
      `<ListBucketResult><EncodingType>url</EncodingType><IsTruncated>true</IsTruncated>
        <Contents><Key>data.zarr/a+b%2Bc/%E1%88%B4</Key><Size>3</Size></Contents>
        <Contents><Key>data.zarr/x%26y</Key></Contents>
        <CommonPrefixes><Prefix>data.zarr/g%20h/</Prefix></CommonPrefixes>
        <NextContinuationToken>tok&amp;en</NextContinuationToken></ListBucketResult>`,
    );
    expect(page).toEqual({
      keys: ["data.zarr/a b+c/ሴ", "data.zarr/x&y"],
      sizes: [3, 0],
      prefixes: ["data.zarr/g h/"],
      next: "tok&en",
    });
  });

  test("without EncodingType keys are taken as they are (entities decoded); the last page has no token", () => {
    const page = parseListPage(
      "<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>a%20b&amp;c</Key></Contents></ListBucketResult>",
    );
    expect(page).toEqual({ keys: ["a%20b&c"], sizes: [0], prefixes: [], next: undefined });
  });
});

import type { BucketClient } from "./bucket-client.js";
import { decodeXmlEntities, xmlElements, xmlText } from "./bucket-client.js";

/** One page of a ListObjectsV2 answer: full object keys and common prefixes. */
export interface ListPage {
  keys: string[];
  /** The size in bytes of each object of `keys`, in the same order. */
  sizes: number[];
  prefixes: string[];
  /** The continuation token of the next page; undefined on the last page. */
  next?: string;
}

/**
 * Parses a ListObjectsV2 answer. With `encoding-type=url` honoured (the answer says
 * `<EncodingType>url</EncodingType>`), keys and prefixes arrive percent-encoded and are decoded.
 */
export function parseListPage(xml: string): ListPage {
  const urlEncoded = xmlText(xml, "EncodingType")?.toLowerCase() === "url";
  const name = (raw: string) => {
    const text = decodeXmlEntities(raw);
    return urlEncoded ? decodeURIComponent(text.replace(/\+/g, " ")) : text;
  };
  const objects = xmlElements(xml, "Contents").flatMap((contents) => {
    const key = /<Key>([\s\S]*?)<\/Key>/.exec(contents);
    const size = /<Size>\s*(\d+)\s*<\/Size>/.exec(contents);
    return key && key[1] !== "" ? [{ key: name(key[1]!), size: size ? Number(size[1]) : 0 }] : [];
  });
  const prefixes = xmlElements(xml, "CommonPrefixes").flatMap((common) => {
    const prefix = /<Prefix>([\s\S]*?)<\/Prefix>/.exec(common);
    return prefix ? [name(prefix[1]!)] : [];
  });
  const truncated = xmlText(xml, "IsTruncated") === "true";
  const next = truncated ? xmlText(xml, "NextContinuationToken") : undefined;
  return {
    keys: objects.map((o) => o.key),
    sizes: objects.map((o) => o.size),
    prefixes,
    next,
  };
}

/**
 * Every page of a listing of `prefix` (full bucket keys), following continuation tokens; with
 * `delimiter` the keys below the next `/` come back as common prefixes.
 */
export async function* listPages(
  client: BucketClient,
  prefix: string,
  options: { delimiter?: string; pageSize?: number; signal?: AbortSignal } = {},
): AsyncGenerator<ListPage> {
  let token: string | undefined;
  const seen = new Set<string>();
  do {
    const query: Record<string, string> = { "list-type": "2", "encoding-type": "url", prefix };
    if (options.delimiter) query.delimiter = options.delimiter;
    if (options.pageSize) query["max-keys"] = String(options.pageSize);
    if (token) query["continuation-token"] = token;
    const answer = await client.request("GET", query, { signal: options.signal });
    if (answer.status !== 200)
      throw client.failure("GET", answer, `listing ${JSON.stringify(prefix)}`);
    const page = parseListPage(answer.text);
    if (page.next !== undefined && seen.has(page.next)) {
      throw client.failure(
        "GET",
        { ...answer, text: `the continuation token ${page.next} came back twice` },
        `listing ${JSON.stringify(prefix)}`,
      );
    }
    if (page.next !== undefined) seen.add(page.next);
    yield page;
    token = page.next;
  } while (token !== undefined);
}

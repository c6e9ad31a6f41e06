/** One page of a List Blobs answer. */
export interface BlobListPage {
  /** Names of the blobs on the page. */
  names: string[];
  /** The size in bytes of each blob of `names` (its `Content-Length`), in the same order. */
  sizes: number[];
  /** Names of the virtual directories (`BlobPrefix`), ending in the delimiter. */
  prefixes: string[];
  /** The marker of the next page; undefined on the last page. */
  nextMarker: string | undefined;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

/** Decodes XML character and entity references. */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith("#x")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    return ENTITIES[ref] ?? whole;
  });
}

/** The text of the first `<Name>` element in an XML fragment (percent-decoded if `Encoded`). */
function nameIn(fragment: string): string | undefined {
  const match = /<Name(\s+Encoded="true")?\s*>([^<]*)<\/Name>/.exec(fragment);
  if (!match) return undefined;
  const text = decodeXmlText(match[2]);
  // Names with characters XML cannot carry come percent-encoded, flagged Encoded="true".
  return match[1] ? decodeURIComponent(text) : text;
}

/**
 * Reads one page of a List Blobs (`comp=list`) XML answer: blob names and sizes, `BlobPrefix` names and
 * `NextMarker`. A small scanner rather than an XML library: the answer's shape is fixed, and
 * Node has no DOMParser.
 */
export function parseBlobList(xml: string): BlobListPage {
  const names: string[] = [];
  const sizes: number[] = [];
  const prefixes: string[] = [];
  for (const match of xml.matchAll(/<(Blob|BlobPrefix)>([\s\S]*?)<\/\1>/g)) {
    const name = nameIn(match[2]);
    if (name === undefined) continue;
    if (match[1] === "BlobPrefix") {
      prefixes.push(name);
      continue;
    }
    names.push(name);
    const length = /<Content-Length>\s*(\d+)\s*<\/Content-Length>/.exec(match[2]);
    sizes.push(length ? Number(length[1]) : 0);
  }
  const marker = /<NextMarker>([^<]*)<\/NextMarker>/.exec(xml);
  const nextMarker = marker && marker[1] !== "" ? decodeXmlText(marker[1]) : undefined;
  return { names, sizes, prefixes, nextMarker };
}

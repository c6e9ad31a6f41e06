/** One page of a List Blobs answer. */
export interface BlobListPage {
  /** Names of the blobs on the page. */
  names: string[];
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
 * Reads one page of a List Blobs (`comp=list`) XML answer: blob names, `BlobPrefix` names and
 * `NextMarker`. A small scanner rather than an XML library: the answer's shape is fixed, and
 * Node has no DOMParser.
 */
export function parseBlobList(xml: string): BlobListPage {
  const names: string[] = [];
  const prefixes: string[] = [];
  for (const match of xml.matchAll(/<(Blob|BlobPrefix)>([\s\S]*?)<\/\1>/g)) {
    const name = nameIn(match[2]);
    if (name === undefined) continue;
    (match[1] === "Blob" ? names : prefixes).push(name);
  }
  const marker = /<NextMarker>([^<]*)<\/NextMarker>/.exec(xml);
  const nextMarker = marker && marker[1] !== "" ? decodeXmlText(marker[1]) : undefined;
  return { names, prefixes, nextMarker };
}

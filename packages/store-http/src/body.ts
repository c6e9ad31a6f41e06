/** Reads a response body into fresh memory. */
export async function readBody(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * Reads at most the first `limit` bytes of a body and cancels the rest of the transfer, for a
 * server that answered a range request with the whole value.
 */
export async function readBodyPrefix(response: Response, limit: number): Promise<Uint8Array> {
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } finally {
    if (total >= limit) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  const out = new Uint8Array(Math.min(total, limit));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
    if (at === out.length) break;
  }
  return out;
}

/** Drops a body we do not need, so the connection can be reused. */
export async function discardBody(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/** A short excerpt of an error body (S3 and GCS explain errors there), for error messages. */
export async function errorExcerpt(response: Response): Promise<string> {
  const text = await response.text().catch(() => "");
  const squeezed = text.replace(/\s+/g, " ").trim();
  return squeezed.length > 200 ? `${squeezed.slice(0, 200)}…` : squeezed;
}

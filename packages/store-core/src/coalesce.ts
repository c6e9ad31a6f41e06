/** A byte span `[offset, offset + length)` of a stored value. */
export interface Span {
  /** First byte. */
  offset: number;
  /** Number of bytes. */
  length: number;
}

/** A merged request: one span covering several requested ones, and where each sits inside it. */
export interface CoalescedSpan extends Span {
  /** The indices (into the requested list) of the spans this request serves. */
  members: number[];
}

/**
 * Merges byte spans whose gap is at most `gap` bytes into fewer, larger requests (sorted by
 * offset). Fetching a little unneeded data between near spans is cheaper than another round
 * trip; `gap: 0` merges only touching or overlapping spans.
 */
export function coalesceSpans(spans: readonly Span[], gap: number): CoalescedSpan[] {
  const order = spans.map((_, i) => i).sort((a, b) => spans[a].offset - spans[b].offset);
  const merged: CoalescedSpan[] = [];
  for (const i of order) {
    const { offset, length } = spans[i];
    const last = merged[merged.length - 1];
    if (last && offset <= last.offset + last.length + gap) {
      last.length = Math.max(last.length, offset + length - last.offset);
      last.members.push(i);
    } else {
      merged.push({ offset, length, members: [i] });
    }
  }
  return merged;
}

/**
 * Cuts the bytes fetched for merged requests back into the requested spans (views, no
 * copies), in the order the spans were requested. A merged response shorter than asked for
 * yields shorter (possibly empty) spans; the caller checks lengths it relies on.
 */
export function splitCoalesced(spans: readonly Span[], merged: readonly CoalescedSpan[], fetched: readonly Uint8Array[]): Uint8Array[] {
  const out = new Array<Uint8Array>(spans.length);
  merged.forEach((request, k) => {
    const bytes = fetched[k];
    for (const i of request.members) {
      const start = spans[i].offset - request.offset;
      out[i] = bytes.subarray(Math.min(start, bytes.length), Math.min(start + spans[i].length, bytes.length));
    }
  });
  return out;
}

/**
 * Icechunk's object ids (12 bytes for snapshots, manifests and chunks, 8 for nodes) and their
 * names in paths: Crockford base 32, uppercase, no padding, zero bits appended on the right.
 */

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** Encodes bytes as Crockford base 32 (`1CECHNKREP0F1RSTCMT0` for the first snapshot). */
export function encodeObjectId(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * Decodes a Crockford base 32 id of `size` bytes; undefined when it is not one (wrong length,
 * a character outside the alphabet, non-zero padding bits). Lowercase and the look-alikes
 * Crockford allows (`O` for 0, `I`/`L` for 1) are accepted.
 */
export function decodeObjectId(text: string, size: number): Uint8Array | undefined {
  if (text.length !== Math.ceil((size * 8) / 5)) return undefined;
  const out = new Uint8Array(size);
  let buffer = 0;
  let bits = 0;
  let n = 0;
  for (const raw of text.toUpperCase()) {
    const ch = raw === "O" ? "0" : raw === "I" || raw === "L" ? "1" : raw;
    const value = ALPHABET.indexOf(ch);
    if (value < 0) return undefined;
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out[n++] = (buffer >> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

/** The id of the first snapshot of every repository. */
export const INITIAL_SNAPSHOT_ID = "1CECHNKREP0F1RSTCMT0";

/** Code page 437 (the IBM PC character set), bytes 0x80-0xFF: zip's legacy name encoding. */
const CP437_HIGH =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/** Flag bit 11 of an entry: its name (and comment) are UTF-8. */
export const UTF8_FLAG = 0x0800;

/**
 * Decodes an entry name. With the UTF-8 flag, or when the bytes are valid UTF-8 (many tools,
 * Info-ZIP and macOS among them, write UTF-8 names without setting the flag), as UTF-8;
 * otherwise as code page 437, what the zip format specified before UTF-8.
 */
export function decodeName(bytes: Uint8Array, flags: number): string {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return String.fromCharCode(...bytes);
  try {
    return utf8.decode(bytes);
  } catch {
    if (flags & UTF8_FLAG) return new TextDecoder().decode(bytes);
    let out = "";
    for (const byte of bytes)
      out += byte < 0x80 ? String.fromCharCode(byte) : CP437_HIGH[byte - 0x80];
    return out;
  }
}

/** Encodes a name as UTF-8, and whether the UTF-8 flag is needed (any non-ASCII character). */
export function encodeName(name: string): { bytes: Uint8Array; utf8: boolean } {
  const bytes = encoder.encode(name);
  return { bytes, utf8: bytes.some((b) => b >= 0x80) };
}

/**
 * Decodes one LZ4 block (the raw block format, no frame) from `src` into `dst`, which must be
 * exactly as long as the decoded data. Every length and offset is checked against both buffers,
 * so hostile input can neither read nor write out of bounds nor loop: each sequence consumes at
 * least one input byte.
 * @returns undefined on success, else what is wrong with the block
 */
export function decodeLz4Block(src: Uint8Array, dst: Uint8Array): string | undefined {
  const end = decodeLz4BlockAt(src, dst, 0);
  if (typeof end === "string") return end;
  if (end !== dst.length)
    return `the block decodes to ${end} bytes, but its header states ${dst.length}`;
  return undefined;
}

/**
 * Decodes one LZ4 block into `dst` starting at `start`; matches may reach back into
 * `dst[0, start)` (the linked blocks of an LZ4 frame). The block may fill `dst` partly.
 * @returns the end of the decoded data in `dst`, or what is wrong with the block
 */
export function decodeLz4BlockAt(src: Uint8Array, dst: Uint8Array, start: number): number | string {
  const end = src.length;
  const size = dst.length;
  let ip = 0;
  let op = start;
  for (;;) {
    if (ip >= end) return "the block ends inside a sequence (truncated data)";
    const token = src[ip++];
    let literals = token >>> 4;
    if (literals === 15) {
      let b: number;
      do {
        if (ip >= end) return "the block ends inside a literal length (truncated data)";
        b = src[ip++];
        literals += b;
      } while (b === 255);
    }
    if (ip + literals > end) return "literals run past the end of the block (truncated data)";
    if (op + literals > size)
      return `the block decodes to more than the ${size} bytes there is room for`;
    if (literals < 16) {
      for (let i = 0; i < literals; i++) dst[op + i] = src[ip + i];
    } else {
      dst.set(src.subarray(ip, ip + literals), op);
    }
    ip += literals;
    op += literals;
    if (ip === end) break; // the last sequence has literals only
    if (ip + 2 > end) return "the block ends inside a match offset (truncated data)";
    const offset = src[ip] | (src[ip + 1] << 8);
    ip += 2;
    if (offset === 0 || offset > op)
      return `a match refers to ${offset} bytes back, before the start of the data`;
    let length = (token & 15) + 4;
    if (length === 19) {
      let b: number;
      do {
        if (ip >= end) return "the block ends inside a match length (truncated data)";
        b = src[ip++];
        length += b;
      } while (b === 255);
    }
    if (op + length > size)
      return `the block decodes to more than the ${size} bytes there is room for`;
    let from = op - offset;
    if (offset >= length && length > 32) {
      dst.copyWithin(op, from, from + length);
      op += length;
    } else {
      // Overlapping matches repeat the last `offset` bytes, which a forward byte copy does.
      const stop = op + length;
      while (op < stop) dst[op++] = dst[from++];
    }
  }
  return op;
}

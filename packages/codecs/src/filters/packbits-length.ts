// Shared inside the @z packages, not public: the packed length, kept out of packbits.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
/** The encoded length of `n` elements: a header byte, then the bits, eight to a byte. */
export function packedLength(n: number): number {
  return Math.ceil(n / 8) + 1;
}

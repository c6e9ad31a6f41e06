// The packed length: private to the @z packages. packbits.ts holds the public side, which the
// package entry re-exports whole.
/** The encoded length of `n` elements: a header byte, then the bits, eight to a byte. */
export function packedLength(n: number): number {
  return Math.ceil(n / 8) + 1;
}

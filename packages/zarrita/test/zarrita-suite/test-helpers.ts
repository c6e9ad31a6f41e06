// Helpers zarrita's tests import from zarrita's internal modules to build expected values or
// inspect what was written; they are not what the tests check. The functions the tests do
// check map to @z/zarrita's own (see module-map.ts); internal functions without a public
// counterpart are simply absent here, and the tests of them are listed in exclusions.ts.

/** The numbers from `start` (default 0) up to `stop`, by `step`, as Python's `range`. */
export function* range(start: number, stop?: number, step = 1): Generator<number> {
  const [from, to] = stop === undefined ? [0, start] : [start, stop];
  for (let i = from; i < to; i += step) yield i;
}

/** A stored JSON document, parsed. */
export function jsonDecodeObject(bytes: Uint8Array): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}

/** The apache-arrow module. */
export type ArrowModule = typeof import("apache-arrow");

let arrowModule: Promise<ArrowModule> | undefined;

/**
 * apache-arrow, loaded on first use: it takes a few hundred milliseconds to load, which
 * readers of Arrow chunks do not pay (decoding does not need it); encoding and the vector
 * helpers do.
 */
export function importArrow(): Promise<ArrowModule> {
  arrowModule ??= import("apache-arrow");
  return arrowModule;
}

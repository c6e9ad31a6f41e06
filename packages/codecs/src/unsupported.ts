/**
 * Codecs of the zarr-extensions registry this package knows of but cannot run, with the
 * reason, so that an array using one fails with a message that says why rather than
 * "unknown codec".
 */
export const UNSUPPORTED_CODECS: Readonly<Record<string, string>> = {};

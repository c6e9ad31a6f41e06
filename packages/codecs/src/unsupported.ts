/**
 * Codecs of the zarr-extensions registry this package knows of but cannot run, with the
 * reason, so that an array using one fails with a message that says why rather than
 * "unknown codec".
 */
export const UNSUPPORTED_CODECS: Readonly<Record<string, string>> = {
  zfp:
    "zfp is a registered Zarr codec (zarr-extensions codecs/zfp) but is not supported in " +
    "JavaScript: its format is defined by the zfp C library and no maintained JavaScript or " +
    "WebAssembly build of it is published on npm. Read the array with zarr-python (numcodecs " +
    "zfpy) or zarrs, or register a zfp codec with registerCodec()",
};

// The built-in codecs. bytes (the default serializer) registers at once; every other codec
// registers a loader and its module (and the libraries it needs) loads when an array first
// names it, so that a page's first load stays small.
// registry.ts imports this module; it uses the tables directly (no import cycle).
import { addCodecLoader, provideCodec } from "./codec-table.js";
import { BytesCodec } from "./core/bytes.js";

provideCodec("bytes", (configuration) => BytesCodec.fromConfig(configuration));

addCodecLoader(["transpose"], () => import("./core/register-transpose.js"));
addCodecLoader(["crc32c"], () => import("./core/register-crc32c.js"));
addCodecLoader(["packbits"], () => import("./core/register-packbits.js"));
addCodecLoader(
  ["gzip", "numcodecs.gzip", "zlib", "numcodecs.zlib"],
  () => import("./compressors/register-deflate.js"),
);
addCodecLoader(["zstd", "numcodecs.zstd"], () => import("./compressors/register-zstd.js"));
addCodecLoader(["numcodecs.lz4"], () => import("./compressors/register-lz4.js"));
addCodecLoader(
  ["numcodecs.crc32", "numcodecs.crc32c", "numcodecs.adler32", "numcodecs.fletcher32"],
  () => import("./compressors/register-checksum32.js"),
);
addCodecLoader(["numcodecs.base64"], () => import("./compressors/register-base64.js"));
addCodecLoader(["numcodecs.bz2"], () => import("./compressors/register-bz2.js"));
addCodecLoader(["numcodecs.lzma"], () => import("./compressors/register-lzma.js"));
addCodecLoader(["blosc", "numcodecs.blosc"], () => import("./blosc/register.js"));
addCodecLoader(["zfp", "numcodecs.zfpy"], () => import("./zfp/register.js"));
addCodecLoader(["n5_default"], () => import("./n5/register.js"));
addCodecLoader(
  ["reshape", "cast_value", "scale_offset", "bitround"],
  () => import("./extensions/register.js"),
);
addCodecLoader(
  [
    "numcodecs.delta",
    "numcodecs.fixedscaleoffset",
    "numcodecs.quantize",
    "numcodecs.bitround",
    "numcodecs.astype",
    "numcodecs.packbits",
    "numcodecs.shuffle",
    "numcodecs.categorize",
  ],
  () => import("./filters/register.js"),
);
// Sharding's default index codecs are bytes and crc32c: they load with it, so that a shard
// index whose metadata leaves them out still builds.
addCodecLoader(["sharding_indexed"], () =>
  Promise.all([import("./sharding/register.js"), import("./core/register-crc32c.js")]),
);

// The built-in codecs. bytes, transpose and crc32c (the v3 defaults and sharding's index codecs)
// register at once; every other codec registers a loader and its module (and the libraries it
// needs) loads when an array first names it, so that a page's first load stays small.

import { BytesCodec } from "./core/bytes.js";
import { Crc32cCodec } from "./core/crc32c-codec.js";
import { TransposeCodec } from "./core/transpose.js";
import { registerCodec, registerCodecLoader } from "./registry.js";

registerCodec("bytes", (configuration) => BytesCodec.fromConfig(configuration));
registerCodec("transpose", (configuration, { spec }) =>
  TransposeCodec.fromConfig(configuration, spec.shape.length),
);
registerCodec("crc32c", (configuration) => Crc32cCodec.fromConfig(configuration));

registerCodecLoader(["packbits"], () => import("./core/register-packbits.js"));
registerCodecLoader(
  ["gzip", "numcodecs.gzip", "zlib", "numcodecs.zlib"],
  () => import("./compressors/register-deflate.js"),
);
registerCodecLoader(["zstd", "numcodecs.zstd"], () => import("./compressors/register-zstd.js"));
registerCodecLoader(["numcodecs.lz4"], () => import("./compressors/register-lz4.js"));
registerCodecLoader(
  ["numcodecs.crc32", "numcodecs.crc32c", "numcodecs.adler32"],
  () => import("./compressors/register-checksum32.js"),
);
registerCodecLoader(["numcodecs.bz2"], () => import("./compressors/register-bz2.js"));
registerCodecLoader(["numcodecs.lzma"], () => import("./compressors/register-lzma.js"));
registerCodecLoader(["blosc", "numcodecs.blosc"], () => import("./blosc/register.js"));
registerCodecLoader(
  ["reshape", "cast_value", "scale_offset", "bitround"],
  () => import("./extensions/register.js"),
);
registerCodecLoader(
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
registerCodecLoader(["sharding_indexed"], () => import("./sharding/register.js"));

// Registers the compressors (gzip, zlib, zstd, lz4) and numcodecs' 32-bit checksum codecs.
import { registerCodec } from "../registry.js";
import { Bz2Codec } from "./bz2.js";
import { Checksum32Codec } from "./checksum32.js";
import { GzipCodec } from "./gzip.js";
import { Lz4Codec } from "./lz4.js";
import { LzmaCodec } from "./lzma.js";
import { ZlibCodec } from "./zlib.js";
import { ZstdCodec } from "./zstd.js";

registerCodec("gzip", (configuration) => GzipCodec.fromConfig(configuration, "gzip"));
registerCodec("numcodecs.gzip", (configuration) =>
  GzipCodec.fromConfig(configuration, "numcodecs.gzip"),
);
registerCodec("numcodecs.zlib", (configuration) =>
  ZlibCodec.fromConfig(configuration, "numcodecs.zlib"),
);
// zarrita reads v3 metadata naming the codec plain "zlib".
registerCodec("zlib", (configuration) => ZlibCodec.fromConfig(configuration, "zlib"));
registerCodec("zstd", (configuration) => ZstdCodec.fromConfig(configuration, "zstd"));
registerCodec("numcodecs.zstd", (configuration) =>
  ZstdCodec.fromConfig(configuration, "numcodecs.zstd"),
);
registerCodec("numcodecs.lz4", (configuration) => Lz4Codec.fromConfig(configuration));
registerCodec("numcodecs.crc32", (configuration) =>
  Checksum32Codec.fromConfig(configuration, "crc32"),
);
registerCodec("numcodecs.crc32c", (configuration) =>
  Checksum32Codec.fromConfig(configuration, "crc32c"),
);
registerCodec("numcodecs.adler32", (configuration) =>
  Checksum32Codec.fromConfig(configuration, "adler32"),
);
registerCodec("numcodecs.bz2", (configuration) => Bz2Codec.fromConfig(configuration));
registerCodec("numcodecs.lzma", (configuration) => LzmaCodec.fromConfig(configuration));

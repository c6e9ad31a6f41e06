// Registers gzip and zlib (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { GzipCodec } from "./gzip.js";
import { ZlibCodec } from "./zlib.js";

provideCodec("gzip", (configuration) => GzipCodec.fromConfig(configuration, "gzip"));
provideCodec("numcodecs.gzip", (configuration) =>
  GzipCodec.fromConfig(configuration, "numcodecs.gzip"),
);
provideCodec("numcodecs.zlib", (configuration) =>
  ZlibCodec.fromConfig(configuration, "numcodecs.zlib"),
);
// zarrita reads v3 metadata naming the codec plain "zlib".
provideCodec("zlib", (configuration) => ZlibCodec.fromConfig(configuration, "zlib"));

// Registers numcodecs' 32-bit checksum codecs (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { Checksum32Codec } from "./checksum32.js";

provideCodec("numcodecs.crc32", (configuration) =>
  Checksum32Codec.fromConfig(configuration, "crc32"),
);
provideCodec("numcodecs.crc32c", (configuration) =>
  Checksum32Codec.fromConfig(configuration, "crc32c"),
);
provideCodec("numcodecs.adler32", (configuration) =>
  Checksum32Codec.fromConfig(configuration, "adler32"),
);
provideCodec("numcodecs.fletcher32", (configuration) =>
  Checksum32Codec.fromConfig(configuration, "fletcher32"),
);

// Registers zstd (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { ZstdCodec } from "./zstd.js";

provideCodec("zstd", (configuration) => ZstdCodec.fromConfig(configuration, "zstd"));
provideCodec("numcodecs.zstd", (configuration) =>
  ZstdCodec.fromConfig(configuration, "numcodecs.zstd"),
);

// Registers numcodecs' lz4 (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { Lz4Codec } from "./lz4.js";

provideCodec("numcodecs.lz4", (configuration) => Lz4Codec.fromConfig(configuration));

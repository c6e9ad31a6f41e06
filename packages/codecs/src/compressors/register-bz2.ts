// Registers numcodecs' bz2 (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { Bz2Codec } from "./bz2.js";

provideCodec("numcodecs.bz2", (configuration) => Bz2Codec.fromConfig(configuration));

// Registers numcodecs' lzma (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { LzmaCodec } from "./lzma.js";

provideCodec("numcodecs.lzma", (configuration) => LzmaCodec.fromConfig(configuration));

// Registers the crc32c checksum codec (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { Crc32cCodec } from "./crc32c-codec.js";

provideCodec("crc32c", (configuration) => Crc32cCodec.fromConfig(configuration));

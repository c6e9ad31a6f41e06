// Registers the packbits array-to-bytes codec (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { PackBitsArrayToBytesCodec } from "./packbits.js";

provideCodec("packbits", (configuration, { spec }) =>
  PackBitsArrayToBytesCodec.fromConfig(configuration, spec),
);

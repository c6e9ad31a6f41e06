// Registers the transpose codec (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { TransposeCodec } from "./transpose.js";

provideCodec("transpose", (configuration, { spec }) =>
  TransposeCodec.fromConfig(configuration, spec.shape.length),
);

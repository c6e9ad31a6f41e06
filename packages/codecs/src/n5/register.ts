// Registers n5_default (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { N5DefaultCodec } from "./codec.js";

provideCodec("n5_default", (configuration, context) =>
  N5DefaultCodec.fromConfig(configuration, context),
);

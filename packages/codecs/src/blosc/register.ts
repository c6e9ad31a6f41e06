// Registers blosc (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { BloscCodec } from "./codec.js";

provideCodec("blosc", (configuration, context) => BloscCodec.fromV3Config(configuration, context));
provideCodec("numcodecs.blosc", (configuration, context) =>
  BloscCodec.fromNumcodecsConfig(configuration, context),
);

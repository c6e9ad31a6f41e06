// Registers the codecs of the zarr-extensions registry (`codecs/<name>`) that this package
// implements, under their registered names (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { BitRoundCodec } from "../filters/bitround.js";
import { IntegerBitRoundCodec } from "./bitround-integers.js";
import { CastValueCodec } from "./cast-value.js";
import { ReshapeCodec } from "./reshape.js";
import { ScaleOffsetCodec } from "./scale-offset.js";

provideCodec("reshape", (configuration, { spec }) => ReshapeCodec.fromConfig(configuration, spec));
provideCodec("cast_value", (configuration, { spec }) =>
  CastValueCodec.fromConfig(configuration, spec),
);
provideCodec("scale_offset", (configuration, { spec }) =>
  ScaleOffsetCodec.fromConfig(configuration, spec),
);
// `numcodecs.bitround` is the registered codec's deprecated alias (floats only); the registered
// name also covers integer types.
provideCodec("bitround", (configuration, { spec }) =>
  spec.dataType.kind === "int" || spec.dataType.kind === "uint"
    ? IntegerBitRoundCodec.fromConfig(configuration, spec)
    : BitRoundCodec.fromConfig(configuration, spec, "bitround"),
);

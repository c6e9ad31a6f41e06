import { registerCodec } from "../registry.js";
import { BloscCodec } from "./codec.js";

registerCodec("blosc", (configuration, context) => BloscCodec.fromV3Config(configuration, context));
registerCodec("numcodecs.blosc", (configuration, context) =>
  BloscCodec.fromNumcodecsConfig(configuration, context),
);

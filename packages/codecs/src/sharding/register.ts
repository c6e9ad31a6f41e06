import { registerCodec } from "../registry.js";
import { ShardingCodec } from "./codec.js";

registerCodec("sharding_indexed", (configuration, context) =>
  ShardingCodec.fromConfig(configuration, context),
);

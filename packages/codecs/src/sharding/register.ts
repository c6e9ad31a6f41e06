// Registers the sharding codec (loaded on first use, see builtins.ts).
import { provideCodec } from "../codec-table.js";
import { ShardingCodec } from "./codec.js";

provideCodec("sharding_indexed", (configuration, context) =>
  ShardingCodec.fromConfig(configuration, context),
);

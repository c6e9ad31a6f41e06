// Registers the Arrow IPC codec; loaded on first use (see register.ts).
import { registerCodec } from "@z/codecs";
import { ArrowIpcCodec } from "./codec.js";
import { ARROW_IPC_CODEC, ARROW_IPC_EXTENSION_CODEC } from "./names.js";

// "arrow_ipc" is how the zarr-extensions prototype writes the name back; it reads too.
for (const name of [ARROW_IPC_CODEC, ARROW_IPC_EXTENSION_CODEC, "arrow_ipc"]) {
  registerCodec(name, (configuration, context) =>
    ArrowIpcCodec.fromConfig(name, configuration, context),
  );
}

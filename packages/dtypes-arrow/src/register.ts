import { registerCodec } from "@z/codecs";
import { registerDataType } from "@z/metadata";
import { isJsonObject } from "@z/metadata/internal";
import { ARROW_IPC_CODEC, ARROW_IPC_EXTENSION_CODEC, ArrowIpcCodec } from "./codec.js";
import { ARROW_DATA_TYPE, ArrowDataType } from "./dtype.js";

registerDataType({
  v3: (json) => {
    const name = typeof json === "string" ? json : isJsonObject(json) ? json.name : undefined;
    // Each array gets its own instance: the field is part of the data type.
    return name === ARROW_DATA_TYPE ? ArrowDataType.fromV3(json) : undefined;
  },
});

// "arrow_ipc" is how the zarr-extensions prototype writes the name back; it reads too.
for (const name of [ARROW_IPC_CODEC, ARROW_IPC_EXTENSION_CODEC, "arrow_ipc"]) {
  registerCodec(name, (configuration, context) =>
    ArrowIpcCodec.fromConfig(name, configuration, context),
  );
}

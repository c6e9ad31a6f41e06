// Registers the Arrow data type and codec to load on first use: an app downloads the Arrow
// reader and writer only when it opens or creates an Arrow array.
import { registerCodecLoader } from "@z/codecs";
import { registerDataTypeLoader } from "@z/metadata";
import {
  ARROW_DATA_TYPE,
  ARROW_IPC_CODEC,
  ARROW_IPC_EXTENSION_CODEC,
  arrowTypeName,
} from "./names.js";

registerDataTypeLoader(
  (json) => arrowTypeName(json) === ARROW_DATA_TYPE,
  () => import("./register-dtype.js"),
);
// "arrow_ipc" is how the zarr-extensions prototype writes the name back; it reads too.
registerCodecLoader(
  [ARROW_IPC_CODEC, ARROW_IPC_EXTENSION_CODEC, "arrow_ipc"],
  () => import("./register-codec.js"),
);

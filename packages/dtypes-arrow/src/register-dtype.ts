// Registers the Arrow data type; loaded on first use (see register.ts).
import { registerDataType } from "@z/metadata";
import { ArrowDataType } from "./dtype.js";
import { ARROW_DATA_TYPE, arrowTypeName } from "./names.js";

registerDataType({
  // Each array gets its own instance: the field is part of the data type.
  v3: (json) => (arrowTypeName(json) === ARROW_DATA_TYPE ? ArrowDataType.fromV3(json) : undefined),
});

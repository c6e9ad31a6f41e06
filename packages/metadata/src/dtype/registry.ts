import { numericDataTypes } from "./numeric.js";
import { registerExtensionDataTypes } from "./register-extensions.js";
import { registerFixedSizeDataTypes } from "./register-fixed.js";
import { registerDataType } from "./registry-table.js";

// The data type registry with every built-in type registered. Importing the lookups from here
// (not from registry-table.ts) guarantees the registrations ran first.
export {
  registerDataType,
  registeredDataTypeNames,
  resolveDataTypeV2,
  resolveDataTypeV3,
  resolveNumpyDataType,
  type V2DataType,
  type V2DataTypeResolver,
  type V3DataTypeResolver,
} from "./registry-table.js";

for (const dataType of numericDataTypes) registerDataType(dataType);
registerFixedSizeDataTypes();
registerExtensionDataTypes();

// The module loadDataTypes() imports: registers the fixed-size and extension data types once.
import { registerExtensionDataTypes } from "./register-extensions.js";
import { registerFixedSizeDataTypes } from "./register-fixed.js";

let registered = false;

/** Registers the data types that load on first use (once). */
export function registerLazyDataTypes(): void {
  if (registered) return;
  registered = true;
  registerFixedSizeDataTypes();
  registerExtensionDataTypes();
}

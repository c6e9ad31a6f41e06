// zarrita's util modules mix public functions and internals. The public ones map to
// @z/zarrita's; the tests' own helpers come from test-helpers.ts.
export { isDataType } from "../../src/data-types.js";
export { select, slice } from "../../src/indexing.js";
export { jsonDecodeObject, range } from "./test-helpers.js";

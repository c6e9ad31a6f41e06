// readNodeMetadata needs the consolidated metadata class only for groups: it imports this module
// on first use, so an app that only opens arrays does not load it. Only the class is re-exported
// here, so that bundlers keep the rest of consolidated.ts (which needs the group code) out of
// the chunk.
export { ConsolidatedMetadata } from "./consolidated.js";

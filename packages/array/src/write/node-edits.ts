// The entry module of moving and deleting nodes, loaded on first use (see lazy-features.ts).
export { deleteNode } from "./delete-node.js";
export { checkMove, type MovedNode, type MoveOptions, moveNode } from "./move-node.js";

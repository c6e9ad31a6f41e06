export * from "./fixtures.js";
export * from "./npy.js";
export * from "./temp.js";
export * from "./golden.js";

export * from "./fixtures.js";
export * from "./npy.js";
export * from "./temp.js";
export * from "./golden.js";
export * from "./expected.js";
export * from "./scope.js";
export * from "./samples.js";
export * from "./python.js";

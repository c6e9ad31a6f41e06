export * from "./chromium.js";
export type { ShimTestResult } from "./vitest-shim.js";

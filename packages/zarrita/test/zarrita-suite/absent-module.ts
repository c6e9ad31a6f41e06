// Stands for an internal module of zarrita that has no counterpart (see absentModules in
// module-map.ts): it exports nothing, so a test that uses the internal class fails, and such
// tests are listed in exclusions.ts.
export {};

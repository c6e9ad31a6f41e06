// Vitest setup: loads the data types and codecs that otherwise load on first use, so that tests
// may build them synchronously (resolveCodec, resolveDataTypeV3) as before. The built-in ones
// load before the test file runs; those of extensions the test file imports (Arrow, strings)
// load before its tests. First-use loading itself is tested in
// packages/array/test/lazy-loading.test.ts, on fresh module instances.
import { loadAllCodecs } from "@z/codecs";
import { loadDataTypes } from "@z/metadata";
import { beforeAll } from "vitest";

const loadAll = () => Promise.all([loadDataTypes(), loadAllCodecs()]);

await loadAll();
beforeAll(loadAll);

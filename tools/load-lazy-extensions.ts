// Vitest setup: loads the data types and codecs that load on first use, so that tests may
// build them synchronously (resolveCodec, resolveDataTypeV3) as before. The first-use loading
// itself is tested in packages/array/test/lazy-loading.test.ts, on fresh module instances.
import { loadAllCodecs } from "@z/codecs";
import { loadDataTypes } from "@z/metadata";

await Promise.all([loadDataTypes(), loadAllCodecs()]);

// Preload (`node --import`) of the "forced" mode: every chunk, however small and whatever its
// codecs, is decoded in a worker of a pool from the built `@z/codecs/workers`. The pool is kept
// on globalThis so the reader can report how many chunks went to workers.
import { createWorkerPool, setDefaultDecodePool } from "@z/codecs/workers";

const pool = createWorkerPool({ inlineBelow: 0 });
setDefaultDecodePool(pool);
globalThis.__zarrConformancePool = pool;

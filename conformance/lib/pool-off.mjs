// Preload (`node --import`) of the "no pool" mode: every chunk is decoded on the calling thread.
import { setDefaultDecodePool } from "@z/codecs/workers";

setDefaultDecodePool(false);
globalThis.__zarrConformanceNoPool = true;

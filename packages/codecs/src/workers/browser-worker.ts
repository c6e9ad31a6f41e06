/**
 * The Web Worker that decodes chunks for `createWorkerPool` in browsers. It imports the codecs
 * package, so it knows every codec and data type that importing `@z/codecs` registers.
 * @module
 */
import "../index.js";
import { serveDecodeRequests } from "./serve.js";

serveDecodeRequests(globalThis as unknown as Parameters<typeof serveDecodeRequests>[0]);

/**
 * The Web Worker that decodes chunks for `createWorkerPool` in browsers. It imports the
 * codecs package's registrations (builtins.js), so it knows every codec and data type that
 * importing `@z/codecs` registers; those that load on first use load when a request names them.
 * @module
 */
import "../builtins.js";
import { serveDecodeRequests } from "./serve.js";

serveDecodeRequests(globalThis as unknown as Parameters<typeof serveDecodeRequests>[0]);

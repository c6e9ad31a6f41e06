/**
 * The worker_threads worker that decodes chunks for `createWorkerPool` in Node. It imports the
 * codecs package, so it knows every codec and data type that importing `@z/codecs` registers.
 * @module
 */
import { parentPort } from "node:worker_threads";
import "../index.js";
import type { DecodeRequest } from "./protocol.js";
import { serveDecodeRequests } from "./serve.js";

if (parentPort) {
  const port = parentPort;
  const handle = serveDecodeRequests(
    { postMessage: (message, transfer) => port.postMessage(message, transfer) },
    false,
  );
  port.on("message", (request: DecodeRequest) => handle(request));
}

/**
 * The worker_threads worker that decodes chunks for `createWorkerPool` in Node. It imports the
 * codecs package's registrations (builtins.js), so it knows every codec and data type that
 * importing `@z/codecs` registers; those that load on first use load when a request names them.
 * @module
 */
import { parentPort } from "node:worker_threads";
import "../builtins.js";
import type { DecodeRequest, EncodeRequest } from "./protocol.js";
import { serveDecodeRequests } from "./serve.js";

if (parentPort) {
  const port = parentPort;
  const handle = serveDecodeRequests(
    { postMessage: (message, transfer) => port.postMessage(message, transfer) },
    false,
  );
  port.on("message", (request: DecodeRequest | EncodeRequest) => handle(request));
}

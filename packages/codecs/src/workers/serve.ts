import { type JsonValue, loadDataTypesFor } from "@z/metadata";
import { copyRegion, isTypedArray, type TypedArray } from "@z/ndarray";
import { afterLoading } from "../after-loading.js";
import { loadCodecsFor } from "../registry.js";
import { cachedPipeline } from "./pipeline-cache.js";
import { type DecodeReply, type DecodeRequest, errorToJson } from "./protocol.js";

/** A reply and the buffers to transfer with it. */
export interface ReplyWithTransfer {
  /** The message. */
  reply: DecodeReply;
  /** Buffers that move to the receiving thread. */
  transfer: ArrayBuffer[];
}

/** Decodes one request in this thread (a worker): the reply and the buffer to transfer back. */
export async function answerDecodeRequest(request: DecodeRequest): Promise<ReplyWithTransfer> {
  try {
    // A worker starts with only the eager registrations: load what this chain names first,
    // then whatever building it turns out to need besides.
    await Promise.all([
      loadCodecsFor(request.codecs as unknown as JsonValue),
      loadDataTypesFor({ data_type: request.spec.dataType } as JsonValue),
    ]);
    const { codecs, spec, zarrFormat } = request;
    const pipeline = await afterLoading(() => cachedPipeline(codecs, spec, zarrFormat));
    const chunk = await pipeline.decode(request.bytes);
    const { place } = request;
    if (place) {
      // The copy into shared memory is the point: the calling thread neither copies nor
      // takes the first-touch page faults of the result, which spread over the workers.
      for (const region of place.regions)
        copyRegion(chunk, region, place.out as TypedArray, place.lanes);
      return { reply: { id: request.id, placed: true }, transfer: [] };
    }
    if (!isTypedArray(chunk.data)) throw new TypeError("the decoded chunk is not a TypedArray");
    let data = chunk.data;
    // Only a buffer the decoded view spans whole moves; a view into something larger (a
    // WebAssembly memory, a shared scratch buffer) is copied out first.
    if (data.byteOffset !== 0 || data.byteLength !== data.buffer.byteLength) data = data.slice();
    const transfer = data.buffer instanceof ArrayBuffer ? [data.buffer] : [];
    return {
      reply: { id: request.id, data, shape: chunk.shape, stride: chunk.stride },
      transfer,
    };
  } catch (error) {
    return { reply: { id: request.id, error: errorToJson(error) }, transfer: [] };
  }
}

/** The messaging side of a worker scope (a Web Worker's `self`, or Node's `parentPort`). */
export interface WorkerScopeLike {
  /** Posts a message to the pool. */
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
}

/**
 * Makes this worker answer decode requests: call it from your own worker module after
 * importing the packages whose codecs and data types it must know (the default worker knows
 * everything `@z/codecs` registers).
 * @example
 * ```ts
 * // my-codec-worker.ts
 * import "@z/dtypes-vlen"; // extra registrations
 * import { serveDecodeRequests } from "@z/codecs/workers";
 * serveDecodeRequests(self);
 * ```
 * @returns the message handler, for scopes that take one (Node's `parentPort.on("message")`)
 * @category Workers
 */
export function serveDecodeRequests(
  scope: WorkerScopeLike & { onmessage?: unknown },
  listen = true,
): (request: DecodeRequest) => void {
  const handle = (request: DecodeRequest) => {
    void answerDecodeRequest(request).then(({ reply, transfer }) =>
      scope.postMessage(reply, transfer),
    );
  };
  if (listen) scope.onmessage = (event: { data: DecodeRequest }) => handle(event.data);
  return handle;
}

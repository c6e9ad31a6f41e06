import { type JsonValue, loadDataTypesFor } from "@z/metadata";
import {
  copyRegion,
  isTypedArray,
  product,
  regionElementRanges,
  type TypedArray,
} from "@z/ndarray";
import { afterLoading } from "../after-loading.js";
import type { CodecPipeline } from "../pipeline.js";
import { loadCodecsFor } from "../registry.js";
import type { ChunkDecodeOptions } from "../types.js";
import { cachedPipeline } from "./pipeline-cache.js";
import {
  type DecodeReply,
  type DecodeRequest,
  type EncodeRequest,
  errorToJson,
  type PlaceRequest,
} from "./protocol.js";

/** A reply and the buffers to transfer with it. */
export interface ReplyWithTransfer {
  /** The message. */
  reply: DecodeReply;
  /** Buffers that move to the receiving thread. */
  transfer: ArrayBuffer[];
}

/** Encodes one chunk in this thread (a worker): the reply and the buffer to transfer back. */
export async function answerEncodeRequest(request: EncodeRequest): Promise<ReplyWithTransfer> {
  try {
    const pipeline = await pipelineOf(request);
    const spec = pipeline.spec;
    const data = rewrap(request.data, spec.dataType.create(0) as TypedArray);
    let encoded = await pipeline.encode({ data, shape: request.shape, stride: request.stride });
    if (encoded.byteOffset !== 0 || encoded.byteLength !== encoded.buffer.byteLength)
      encoded = encoded.slice();
    const transfer = encoded.buffer instanceof ArrayBuffer ? [encoded.buffer] : [];
    return { reply: { id: request.id, encoded }, transfer };
  } catch (error) {
    return { reply: { id: request.id, error: errorToJson(error) }, transfer: [] };
  }
}

/** The pipeline of a request's codecs and spec, after loading what they name. */
async function pipelineOf(request: DecodeRequest | EncodeRequest): Promise<CodecPipeline> {
  // A worker starts with only the eager registrations: load what this chain names first,
  // then whatever building it turns out to need besides.
  await Promise.all([
    loadCodecsFor(request.codecs as unknown as JsonValue),
    loadDataTypesFor({ data_type: request.spec.dataType } as JsonValue),
  ]);
  const { codecs, spec, zarrFormat } = request;
  return afterLoading(() => cachedPipeline(codecs, spec, zarrFormat));
}

/** A structured clone's plain TypedArray as the container class of the data type. */
function rewrap(data: ArrayBufferView, sample: TypedArray): TypedArray {
  const Container = sample.constructor as new (
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ) => TypedArray;
  if (data instanceof Container) return data;
  return new Container(data.buffer, data.byteOffset, data.byteLength / sample.BYTES_PER_ELEMENT);
}

/** Decodes one request in this thread (a worker): the reply and the buffer to transfer back. */
export async function answerDecodeRequest(request: DecodeRequest): Promise<ReplyWithTransfer> {
  try {
    const pipeline = await pipelineOf(request);
    const { place } = request;
    if (place) {
      const chunk = await pipeline.decode(request.bytes, decodeHints(pipeline, place));
      // The copy into shared memory is the point: the calling thread neither copies nor
      // takes the first-touch page faults of the result, which spread over the workers.
      for (const region of place.regions)
        copyRegion(chunk, region, place.out as TypedArray, place.lanes);
      return { reply: { id: request.id, placed: true }, transfer: [] };
    }
    const chunk = await pipeline.decode(request.bytes);
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

/** This worker's buffer for chunks it decodes and copies out at once (one decode at a time). */
let scratch = new Uint8Array(0);
/** Scratch buffers up to this size are kept between decodes. */
const SCRATCH_KEEP = 64 << 20;

/**
 * What a decode whose parts go straight to a shared result may skip and reuse: only the elements
 * the regions read (a blosc chunk then decodes only the blocks they touch), decoded into this
 * worker's scratch buffer rather than fresh memory, since the parts are copied out at once.
 */
function decodeHints(pipeline: CodecPipeline, place: PlaceRequest): ChunkDecodeOptions {
  if (!pipeline.takesDecodeHints) return {};
  const { shape } = pipeline.spec;
  const size = product(shape) * pipeline.spec.dataType.itemSize;
  let into = scratch;
  if (scratch.length !== size) {
    into = new Uint8Array(size);
    if (size <= SCRATCH_KEEP) scratch = into;
  }
  if (!pipeline.usesElementHints) return { into };
  return { into, elements: regionElementRanges(shape, place.regions) };
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
): (request: DecodeRequest | EncodeRequest) => void {
  const handle = (request: DecodeRequest | EncodeRequest) => {
    const answer =
      "encode" in request ? answerEncodeRequest(request) : answerDecodeRequest(request);
    void answer.then(({ reply, transfer }) => scope.postMessage(reply, transfer));
  };
  if (listen)
    scope.onmessage = (event: { data: DecodeRequest | EncodeRequest }) => handle(event.data);
  return handle;
}

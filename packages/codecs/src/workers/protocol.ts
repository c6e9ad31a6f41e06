import { MetadataError, type NamedConfig, UnknownDataTypeError } from "@z/metadata";
import type { ChunkRegion } from "@z/ndarray";
import {
  ChecksumError,
  CodecConfigError,
  CodecError,
  DecodeError,
  UnknownCodecError,
} from "../errors.js";
import type { ChunkSpecMessage } from "./spec-message.js";

/**
 * Where a worker copies a decoded chunk's parts itself: a result in shared memory (a view of a
 * SharedArrayBuffer, shared, not copied, by the message) and the regions to copy into it.
 */
export interface PlaceRequest {
  /** The result: a view of a SharedArrayBuffer. */
  out: ArrayBufferView;
  /** The chunk's parts and their places in `out`. */
  regions: ChunkRegion[];
  /** Container slots per element (2 for interleaved complex). */
  lanes: number;
}

/** What the pool posts to a worker: one chunk to decode. */
export interface DecodeRequest {
  /** Matches the reply to the request. */
  id: number;
  /** The stored bytes (their buffer is transferred). */
  bytes: Uint8Array;
  /** The codec chain, as array metadata lists it. */
  codecs: NamedConfig[];
  /** The chunk spec as structured-clone data. */
  spec: ChunkSpecMessage;
  /** The Zarr format of the array. */
  zarrFormat: 2 | 3;
  /** Copy the decoded chunk's parts into a shared result instead of sending it back. */
  place?: PlaceRequest;
}

/** What the pool posts to a worker to encode one chunk. */
export interface EncodeRequest {
  /** Matches the reply to the request. */
  id: number;
  /** Marks the request as an encode. */
  encode: true;
  /** The chunk's elements (their buffer is transferred). */
  data: ArrayBufferView;
  /** The chunk's shape. */
  shape: number[];
  /** The chunk's element strides. */
  stride: number[];
  /** The codec chain, as array metadata lists it. */
  codecs: NamedConfig[];
  /** The chunk spec as structured-clone data. */
  spec: ChunkSpecMessage;
  /** The Zarr format of the array. */
  zarrFormat: 2 | 3;
}

/** An error as plain data: enough to rebuild the same class on the other side. */
export interface ErrorJson {
  /** The error class name (`DecodeError`, `ChecksumError`, ...). */
  name: string;
  /** Its message. */
  message: string;
  /** For codec errors: the name of the codec that failed. */
  codec?: string;
}

/** What a worker posts back. */
export type DecodeReply =
  | {
      /** The request's id. */
      id: number;
      /** The decoded elements (a TypedArray; its buffer is transferred). */
      data: ArrayBufferView;
      /** The chunk shape. */
      shape: number[];
      /** The element strides. */
      stride: number[];
    }
  | {
      /** The request's id. */
      id: number;
      /** The chunk's parts are in the shared result (a request with `place`). */
      placed: true;
    }
  | {
      /** The request's id. */
      id: number;
      /** The encoded bytes of an {@link EncodeRequest} (their buffer is transferred). */
      encoded: Uint8Array;
    }
  | {
      /** The request's id. */
      id: number;
      /** Why the decode failed. */
      error: ErrorJson;
    };

/** The plain-data form of an error thrown while decoding. */
export function errorToJson(error: unknown): ErrorJson {
  if (error instanceof CodecError) {
    const json: ErrorJson = { name: error.name, message: error.message };
    if (error.codec !== undefined) json.codec = error.codec;
    return json;
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: "Error", message: String(error) };
}

/** Rebuilds an error a worker reported, as the class the inline pipeline would have thrown. */
export function errorFromJson(json: ErrorJson): Error {
  let error: Error;
  switch (json.name) {
    case "UnknownCodecError":
      error = new UnknownCodecError(json.codec ?? "?");
      break;
    case "ChecksumError":
      error = new ChecksumError(json.message, { codec: json.codec });
      break;
    case "DecodeError":
      error = new DecodeError(json.message, { codec: json.codec });
      break;
    case "CodecConfigError":
      error = new CodecConfigError(json.message, { codec: json.codec });
      break;
    case "UnknownDataTypeError":
      error = new UnknownDataTypeError(json.message);
      break;
    case "MetadataError":
      error = new MetadataError(json.message);
      break;
    default:
      error = new CodecError(`a codec worker failed: ${json.name}: ${json.message}`);
  }
  error.message = json.message;
  return error;
}

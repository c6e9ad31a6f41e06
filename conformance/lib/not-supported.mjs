// The arrays we refuse on purpose, each with the typed error it must give and why. Every other
// array that a reference reads must read equal, and every array that none reads must read or
// fail with one of these errors. The README lists the same cases.

/**
 * @typedef {{
 *   what: string,
 *   why: string,
 *   errors: string[],
 *   applies: (entry: {id: string, features: {dtype: string, codecs: string[]}}, way: string) => boolean,
 * }} Refusal
 */

const usesCodec =
  (...names) =>
  (entry) =>
    entry.features.codecs.some((c) => names.includes(c));

/** @type {Refusal[]} */
export const REFUSALS = [
  {
    what: "numcodecs.pickle",
    why: "unpickling runs arbitrary Python code: never read",
    errors: ["UnknownCodecError"],
    applies: usesCodec("numcodecs.pickle"),
  },
  {
    what: "pcodec (numcodecs.pcodec)",
    why: "not implemented: no JavaScript or WebAssembly build of pcodec is used",
    errors: ["UnknownCodecError"],
    applies: usesCodec("numcodecs.pcodec", "pcodec"),
  },
  {
    what: "the optional data type (zarrs)",
    why: "not implemented (no reference reader here reads it either)",
    errors: ["UnknownDataTypeError"],
    applies: (entry) => entry.features.dtype === "optional",
  },
  {
    what: "an unknown storage transformer",
    why: "the v3 spec requires refusing arrays whose storage transformers are not understood (zarrita ignores them)",
    errors: ["UnknownStorageTransformerError"],
    applies: (entry) => /zarr-java\/testdata\/storage_transformer\/exists$/.test(entry.id),
  },
  {
    what: "z5py's gzip array",
    why: "its chunks are zlib streams under the gzip id: zarr-python 2 and zarrita refuse them too",
    errors: ["DecodeError"],
    applies: (entry) => /zarr-implementations\/data\/z5py\.zr\/gzip$/.test(entry.id),
  },
  {
    what: "NCZarr's ref_noshape",
    why: "a 0-d array whose chunk holds six elements: zarr-python 2 and zarrita refuse it too",
    errors: ["DecodeError"],
    applies: (entry) => /ref_noshape\.file\.zip!/.test(entry.id),
  },
  {
    what: "zarrs' packbits_subbyte_test.zarr (the folder's top level)",
    why: "dead test data (removed from zarrs in a47484de): its chunks hold 18 bytes where float4 elements take 12",
    errors: ["DecodeError"],
    applies: (entry) => /packbits_subbyte\/packbits_subbyte_test\.zarr$/.test(entry.id),
  },
  {
    what: "string, bytes and object data types in the minimal assembly",
    why: "they live in @z/dtypes-vlen, which @z/array + @z/store-fs do not bring (the umbrella does)",
    errors: ["UnknownDataTypeError"],
    applies: (entry, way) =>
      way === "minimal" && ["string", "bytes", "object"].includes(entry.features.dtype),
  },
];

/** The documented refusal that covers an array read a given way with this error, if any. */
export function refusalFor(entry, way, errorName) {
  return REFUSALS.find((r) => r.applies(entry, way) && r.errors.includes(errorName));
}

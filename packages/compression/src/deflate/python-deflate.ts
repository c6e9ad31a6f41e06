import { constants, Deflate, type DeflateFunctionOptions } from "pako";
import { concat } from "../concat.js";

/** The zlib compression levels (-1 is zlib's default, 6). */
export type DeflateLevel = NonNullable<DeflateFunctionOptions["level"]>;

const KiB = 1024;
const MiB = 1024 * KiB;
/**
 * The output buffer sizes CPython's zlib module (3.10 and later) hands to deflate(), one after
 * another, in every compress() or flush() call.
 */
const PYTHON_OUTPUT_BLOCKS = [
  32 * KiB,
  64 * KiB,
  256 * KiB,
  1 * MiB,
  4 * MiB,
  8 * MiB,
  16 * MiB,
  16 * MiB,
  32 * MiB,
  32 * MiB,
  32 * MiB,
  32 * MiB,
  64 * MiB,
  64 * MiB,
  128 * MiB,
  128 * MiB,
];
const PYTHON_OUTPUT_BLOCK_MAX = 256 * MiB;

/** How Python drives deflate: `zlib.compress(data)` or `compressobj.compress(data)` then `.flush()` (gzip.GzipFile). */
export type PythonCalls = "compress" | "compress-then-flush";

interface ZStream {
  output: Uint8Array;
  next_out: number;
  avail_out: number;
}

/**
 * Deflates `data` with pako (a faithful port of zlib) exactly as CPython's zlib module does,
 * including the sizes of the output buffers it offers deflate(): at level 0 deflate sizes its
 * stored blocks by the room it is given, so only the same schedule gives the same bytes.
 * `raw` leaves out the zlib header and trailer (for gzip).
 */
export function pythonDeflate(
  data: Uint8Array,
  level: DeflateLevel,
  raw: boolean,
  calls: PythonCalls,
): Uint8Array {
  const deflator = new Deflate({ level, raw, windowBits: 15, memLevel: 8 });
  const strm = (deflator as unknown as { strm: ZStream }).strm;
  const chunks: Uint8Array[] = [];
  let block = 0;
  const offer = () => {
    const size = PYTHON_OUTPUT_BLOCKS[block++] ?? PYTHON_OUTPUT_BLOCK_MAX;
    strm.output = new Uint8Array(size);
    strm.next_out = 0;
    strm.avail_out = size;
  };
  // pako calls onData with a full buffer and then allocates its own next one unless room is left.
  deflator.onData = (chunk) => {
    chunks.push(chunk as Uint8Array);
    if (strm.avail_out === 0) offer();
  };
  offer();
  if (calls === "compress-then-flush") {
    deflator.push(data, constants.Z_NO_FLUSH);
    // compress() returns what it wrote; flush() starts over with a fresh first-size buffer.
    if (strm.next_out > 0) chunks.push(strm.output.subarray(0, strm.next_out));
    block = 0;
    offer();
    deflator.push(new Uint8Array(0), constants.Z_FINISH);
  } else {
    deflator.push(data, constants.Z_FINISH);
  }
  if (deflator.err) throw new Error(`deflate failed: ${deflator.msg}`);
  return concat(chunks);
}

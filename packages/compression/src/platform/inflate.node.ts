// Node variant of "#inflate": node:zlib's native inflate on libuv's thread pool, bounded with
// maxOutputLength (see native.node.ts).
export { gunzipBounded, unzlibBounded } from "./native.node.js";

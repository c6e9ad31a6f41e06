// A small zip reader of its own (central directory, stored and deflated entries), so that finding
// the arrays inside the fixtures' zip files and unpacking them for the reference readers does not
// go through the library under test.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { inflateRawSync } from "node:zlib";

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The entries of a zip file: name, compression method, sizes and where the local header sits.
 * @param {Uint8Array} bytes the whole file
 */
export function zipEntries(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65_535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error("not a zip file: no end of central directory record");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (view.getUint32(at, true) !== CENTRAL) throw new Error(`bad central directory at ${at}`);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localHeader = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    entries.push({ name, method, compressedSize, size, localHeader });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The bytes of one entry.
 * @param {Uint8Array} bytes the whole file
 * @param {{name: string, method: number, compressedSize: number, localHeader: number}} entry
 */
export function zipEntryBytes(bytes, entry) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeader;
  if (view.getUint32(at, true) !== LOCAL) throw new Error(`bad local header of ${entry.name}`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return data;
  if (entry.method === 8) return new Uint8Array(inflateRawSync(data));
  throw new Error(`${entry.name}: compression method ${entry.method} is not handled here`);
}

/** Unpacks a zip file into a folder (files only; directory entries are implied). */
export function unzipTo(zipFile, folder) {
  const bytes = new Uint8Array(readFileSync(zipFile));
  for (const entry of zipEntries(bytes)) {
    if (entry.name.endsWith("/")) continue;
    const target = path.join(folder, ...entry.name.split("/"));
    if (!target.startsWith(folder + path.sep)) throw new Error(`${entry.name} leaves the folder`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, zipEntryBytes(bytes, entry));
  }
}

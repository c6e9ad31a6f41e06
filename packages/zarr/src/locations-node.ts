import { stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { type Readable, registerStore, schemeOf } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { openZipFile } from "@z/store-zip/node";
import { openZipUrl } from "./locations.js";

/** A local path: a `.zip` file (read-only) or a folder (an FsStore). */
async function openPath(path: string): Promise<Readable> {
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() ? openZipFile(path) : new FsStore(path);
}

registerStore("", openPath);
registerStore("file", (location) => openPath(fileURLToPath(location)));
registerStore("zip", (location) => {
  const inner = location.slice("zip:".length);
  if (schemeOf(inner) === "http" || schemeOf(inner) === "https") return openZipUrl(inner);
  return openZipFile(schemeOf(inner) === "file" ? fileURLToPath(inner) : inner);
});

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

// Azure Blob Storage: `az://container/path` (and fsspec's `abfs[s]://container@account.dfs…/path`),
// with the account and credentials from AZURE_STORAGE_CONNECTION_STRING. Node only: a browser has
// no environment to name the account, and the browser bundle stays as it was; browsers construct
// an AzureBlobStore with options. The store package loads with the first such location.
async function openAzure(location: string): Promise<Readable> {
  const { AzureBlobStore } = await import("@z/store-azure");
  return AzureBlobStore.fromUrl(location);
}
registerStore("az", openAzure);
registerStore("abfs", openAzure);
registerStore("abfss", openAzure);

/**
 * An Azure Blob Storage Zarr store for Node.js and browsers: SharedKey (WebCrypto HMAC), SAS or
 * anonymous access, configured by options or `AZURE_STORAGE_CONNECTION_STRING`; ranged and
 * batched reads, listing, deletes, conditional writes and retries.
 * @packageDocumentation
 */
export * from "./azure-blob-store.js";
export * from "./connection-string.js";
export * from "./errors.js";
export * from "./location.js";
export type { AzureBlobStoreOptions } from "./options.js";

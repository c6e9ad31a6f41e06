/**
 * An Azure Blob Storage Zarr store for Node.js and browsers: SharedKey (WebCrypto HMAC), SAS or
 * anonymous access, configured by options or `AZURE_STORAGE_CONNECTION_STRING`; ranged and
 * batched reads, listing, deletes, conditional writes and retries.
 * @packageDocumentation
 */
export { AzureBlobStore } from "./azure-blob-store.js";
export {
  AZURITE_ACCOUNT_KEY,
  AZURITE_ACCOUNT_NAME,
  type BlobConnection,
  parseConnectionString,
} from "./connection-string.js";
export { AzureConfigError } from "./errors.js";
export { type AzureLocation, parseAzureLocation } from "./location.js";
export type { AzureBlobStoreOptions } from "./options.js";

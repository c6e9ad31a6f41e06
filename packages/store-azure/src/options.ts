import type { HttpStoreOptions } from "@z/store-http";

/** Options of an {@link AzureBlobStore}. */
export interface AzureBlobStoreOptions
  extends Omit<
    HttpStoreOptions,
    "resolveUrl" | "writable" | "conditionalWrites" | "missingStatuses" | "suffixRanges"
  > {
  /** The container (lower-case letters, digits and hyphens, 3 to 63 characters). */
  container: string;
  /** The folder inside the container that is the store's root (default: the container's root). */
  path?: string;
  /** The storage account (default: from the connection string). */
  accountName?: string;
  /** The account key (base64): requests are signed with SharedKey. */
  accountKey?: string;
  /** A SAS token (with or without the leading `?`), appended to every request. */
  sasToken?: string;
  /** Send requests without credentials (public containers), ignoring the environment. */
  anonymous?: boolean;
  /**
   * The blob service endpoint (default `https://<account>.blob.core.windows.net`, or the
   * connection string's `BlobEndpoint`); for Azurite `http://127.0.0.1:10000/devstoreaccount1`.
   */
  endpoint?: string;
  /**
   * A connection string (`AccountName=...;AccountKey=...` or `UseDevelopmentStorage=true`).
   * Without credentials in the options, the store reads `AZURE_STORAGE_CONNECTION_STRING`
   * (then `AZURE_STORAGE_ACCOUNT` with `AZURE_STORAGE_KEY` or `AZURE_STORAGE_SAS_TOKEN`) from the
   * environment where there is one (Node), else it is anonymous.
   */
  connectionString?: string;
  /** Refuse writes with `ReadOnlyError` (default false). */
  readOnly?: boolean;
  /** Blobs per List Blobs page (default 5000, the service's maximum). */
  listPageSize?: number;
}

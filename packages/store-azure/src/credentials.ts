import { type BlobConnection, parseConnectionString } from "./connection-string.js";
import { AzureConfigError } from "./errors.js";
import type { AzureBlobStoreOptions } from "./options.js";
import { sharedKeySigner } from "./shared-key.js";
import type { AzureAuth } from "./signing-fetch.js";

/** Where a store sends its requests and how it authorises them. */
export interface ResolvedAzureAccess {
  /** The blob service endpoint, without a trailing `/`. */
  endpoint: string;
  /** How requests are authorised. */
  auth: AzureAuth;
  /** Where the credentials came from, for messages. */
  source: string;
}

/** The process environment where there is one (Node), without touching `process` elsewhere. */
function environment(): Record<string, string | undefined> {
  const g = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return g.process?.env ?? {};
}

/** The credentials the options give, else those of the environment. */
function connectionFor(options: AzureBlobStoreOptions): {
  connection: BlobConnection;
  source: string;
} {
  const given: BlobConnection = {
    accountName: options.accountName,
    accountKey: options.accountKey,
    sasToken: options.sasToken,
    blobEndpoint: options.endpoint,
  };
  if (options.anonymous || options.accountKey !== undefined || options.sasToken !== undefined)
    return { connection: given, source: "options" };
  if (options.connectionString !== undefined)
    return {
      connection: { ...parseConnectionString(options.connectionString), ...defined(given) },
      source: "the connectionString option",
    };
  const env = environment();
  if (env.AZURE_STORAGE_CONNECTION_STRING)
    return {
      connection: {
        ...parseConnectionString(env.AZURE_STORAGE_CONNECTION_STRING),
        ...defined(given),
      },
      source: "AZURE_STORAGE_CONNECTION_STRING",
    };
  if (
    env.AZURE_STORAGE_ACCOUNT &&
    (options.accountName ?? env.AZURE_STORAGE_ACCOUNT) === env.AZURE_STORAGE_ACCOUNT
  )
    return {
      connection: {
        accountName: env.AZURE_STORAGE_ACCOUNT,
        accountKey: env.AZURE_STORAGE_KEY || undefined,
        sasToken: env.AZURE_STORAGE_SAS_TOKEN || undefined,
        blobEndpoint: options.endpoint,
      },
      source: "AZURE_STORAGE_ACCOUNT",
    };
  return { connection: given, source: "options (no credentials: anonymous)" };
}

/** The entries of an object whose values are not undefined. */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Works out the endpoint and authorisation of a store: SharedKey when there is an account key,
 * else a SAS token, else anonymous; the options first, then the environment.
 * @throws AzureConfigError when no account or endpoint can be found, or the key is not base64
 */
export function resolveAccess(options: AzureBlobStoreOptions): ResolvedAzureAccess {
  const { connection, source } = connectionFor(options);
  const { accountName, accountKey, sasToken } = connection;
  const endpoint = (
    connection.blobEndpoint ??
    (accountName === undefined ? undefined : `https://${accountName}.blob.core.windows.net`)
  )?.replace(/\/+$/, "");
  if (endpoint === undefined) {
    throw new AzureConfigError(
      `No Azure storage account for container ${JSON.stringify(options.container)}: pass accountName ` +
        "(or endpoint), a connectionString, or set AZURE_STORAGE_CONNECTION_STRING",
    );
  }
  if (!/^https?:\/\//i.test(endpoint))
    throw new AzureConfigError(
      `The Azure blob endpoint ${JSON.stringify(endpoint)} is not an http(s) URL`,
    );
  if (options.anonymous) return { endpoint, auth: { kind: "anonymous" }, source };
  if (accountKey !== undefined) {
    if (accountName === undefined)
      throw new AzureConfigError(
        `An Azure account key was given (${source}) without the account's name`,
      );
    return {
      endpoint,
      auth: { kind: "shared-key", signer: sharedKeySigner(accountName, accountKey) },
      source,
    };
  }
  if (sasToken !== undefined)
    return { endpoint, auth: { kind: "sas", token: sasToken.replace(/^\?/, "") }, source };
  return { endpoint, auth: { kind: "anonymous" }, source };
}

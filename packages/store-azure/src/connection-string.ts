import { AzureConfigError } from "./errors.js";

/** Azurite's (and the old storage emulator's) well-known development account name. */
export const AZURITE_ACCOUNT_NAME = "devstoreaccount1";

/** Azurite's well-known development account key (public; it only opens the local emulator). */
export const AZURITE_ACCOUNT_KEY =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/** What a connection string says about the blob service. */
export interface BlobConnection {
  /** The storage account's name. */
  accountName?: string;
  /** The account key (base64), for SharedKey signing. */
  accountKey?: string;
  /** A SAS token (query string without the leading `?`). */
  sasToken?: string;
  /** The blob service endpoint, without a trailing `/` (`https://acct.blob.core.windows.net`). */
  blobEndpoint?: string;
}

/**
 * Parses an Azure Storage connection string (`Key=Value;...`, as the portal and
 * `AZURE_STORAGE_CONNECTION_STRING` give it): `AccountName`, `AccountKey`, `BlobEndpoint`,
 * `SharedAccessSignature`, `DefaultEndpointsProtocol`, `EndpointSuffix`, and
 * `UseDevelopmentStorage=true` (Azurite at `http://127.0.0.1:10000` with its dev account).
 * Keys are matched without regard to case; other keys (queue, table, file endpoints) are ignored.
 * @throws AzureConfigError for a part without `=`, or a string that names no account or endpoint
 */
export function parseConnectionString(connectionString: string): BlobConnection {
  const parts = new Map<string, string>();
  for (const part of connectionString.split(";")) {
    const trimmed = part.trim();
    if (trimmed === "") continue;
    const eq = trimmed.indexOf("=");
    if (eq <= 0) {
      throw new AzureConfigError(
        `Malformed Azure connection string: the part ${JSON.stringify(redactPart(trimmed))} is not Key=Value`,
      );
    }
    parts.set(trimmed.slice(0, eq).trim().toLowerCase(), trimmed.slice(eq + 1).trim());
  }
  if (parts.get("usedevelopmentstorage")?.toLowerCase() === "true") {
    const proxy = parts.get("developmentstorageproxyuri");
    const host = proxy ? proxy.replace(/\/+$/, "") : "http://127.0.0.1";
    return {
      accountName: AZURITE_ACCOUNT_NAME,
      accountKey: AZURITE_ACCOUNT_KEY,
      blobEndpoint: `${host}:10000/${AZURITE_ACCOUNT_NAME}`,
    };
  }
  const accountName = parts.get("accountname") || undefined;
  const accountKey = parts.get("accountkey") || undefined;
  const sas = parts.get("sharedaccesssignature");
  const sasToken = sas ? sas.replace(/^\?/, "") : undefined;
  let blobEndpoint = parts.get("blobendpoint")?.replace(/\/+$/, "") || undefined;
  if (blobEndpoint === undefined && accountName !== undefined) {
    const protocol = parts.get("defaultendpointsprotocol") || "https";
    const suffix = parts.get("endpointsuffix") || "core.windows.net";
    blobEndpoint = `${protocol}://${accountName}.blob.${suffix}`;
  }
  if (blobEndpoint === undefined) {
    throw new AzureConfigError(
      "Azure connection string names neither AccountName nor BlobEndpoint: cannot tell which storage account to use",
    );
  }
  return { accountName, accountKey, sasToken, blobEndpoint };
}

/** A part of a connection string as it may be shown in a message: secrets cut. */
function redactPart(part: string): string {
  return part.length > 12 ? `${part.slice(0, 12)}…` : part;
}

import { normalizePath } from "@z/store-core";
import { AzureConfigError } from "./errors.js";

/** What an Azure location names. */
export interface AzureLocation {
  /** The container. */
  container: string;
  /** The folder inside the container (`""` for its root). */
  path: string;
  /** The account, when the location names one (`abfs://container@account.dfs…`). */
  accountName?: string;
}

/**
 * Parses `az://container/path` (the account comes from the options or the environment), and
 * `abfs://container@account.dfs.core.windows.net/path` (or `abfss://`), as fsspec writes them.
 * @throws AzureConfigError for another scheme or a location without a container
 */
export function parseAzureLocation(location: string): AzureLocation {
  const match = /^(az|abfss?):\/\/([^/?#]*)([^?#]*)$/i.exec(location);
  if (!match) {
    throw new AzureConfigError(
      `Not an Azure location: ${JSON.stringify(location)} (expected az://container/path)`,
    );
  }
  let container = decodeURIComponent(match[2]);
  let accountName: string | undefined;
  const at = container.indexOf("@");
  if (at !== -1) {
    accountName = container.slice(at + 1).split(".")[0] || undefined;
    container = container.slice(0, at);
  }
  if (container === "")
    throw new AzureConfigError(`The Azure location ${JSON.stringify(location)} names no container`);
  const path = normalizePath(decodeURIComponent(match[3]));
  return { container, path, accountName };
}

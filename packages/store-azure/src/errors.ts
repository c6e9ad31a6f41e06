import { StoreError } from "@z/store-core";

/**
 * An Azure store that cannot be set up as asked: a malformed connection string or `az://`
 * location, a missing account name or container, a key that is not base64.
 * @category Errors
 */
export class AzureConfigError extends StoreError {
  override name = "AzureConfigError";
}

import { nameErrorClass } from "@z/errors";
import { StoreError } from "@z/store-core";

declare module "@z/errors" {
  interface ZarrErrorMap {
    AzureConfigError: AzureConfigError;
  }
}

/**
 * An Azure store that cannot be set up as asked: a malformed connection string or `az://`
 * location, a missing account name or container, a key that is not base64.
 * @category Errors
 */
export class AzureConfigError extends StoreError {
  static {
    nameErrorClass(AzureConfigError, "AzureConfigError");
  }
}

import { nameErrorClass, ZarrError } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    ConfigError: ConfigError;
  }
}

/**
 * A `config.get` or `config.set` call that names no setting, or gives a setting a value of the
 * wrong type or range. Nothing is changed when `config.set` throws it.
 * @category Errors
 */
export class ConfigError extends ZarrError {
  static {
    nameErrorClass(ConfigError, "ConfigError");
  }
  constructor(
    message: string,
    /** The setting's name as given. */
    readonly setting: string,
  ) {
    super(message);
  }
}

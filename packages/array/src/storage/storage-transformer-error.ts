import { nameErrorClass } from "@z/errors";
import { UnsupportedExtensionError } from "@z/metadata";

declare module "@z/errors" {
  interface ZarrErrorMap {
    UnknownStorageTransformerError: UnknownStorageTransformerError;
  }
}

/**
 * An array's metadata names a storage transformer that is not registered and that readers must
 * understand (`must_understand` true or absent): its chunks cannot be found without it, so the
 * array does not open. Register the transformer with `registerStorageTransformer`.
 * @category Errors
 */
export class UnknownStorageTransformerError extends UnsupportedExtensionError {
  static {
    nameErrorClass(UnknownStorageTransformerError, "UnknownStorageTransformerError");
  }
  /** The array's path, without a leading `/`. */
  declare readonly path: string;
  constructor(
    /** The transformer's name as the metadata gives it. */
    readonly transformer: string,
    path: string,
    known: readonly string[] = [],
  ) {
    super(
      `The array /${path} needs the storage transformer ${JSON.stringify(transformer)}, which is not registered ` +
        `(registered: ${known.length > 0 ? known.join(", ") : "none"}); register it with registerStorageTransformer()`,
      { path },
    );
  }
}

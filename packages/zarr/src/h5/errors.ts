import { nameErrorClass, ZarrError } from "@z/errors";
import { ReadOnlyError } from "@z/store-core";

declare module "@z/errors" {
  interface ZarrErrorMap {
    H5Error: H5Error;
    FileExistsError: FileExistsError;
    NameExistsError: NameExistsError;
    H5TypeError: H5TypeError;
    H5ValueError: H5ValueError;
    ClosedFileError: ClosedFileError;
    FileModeError: FileModeError;
  }
}

/** Base class of the errors only the h5py-style layer raises. */
export class H5Error extends ZarrError {
  static {
    nameErrorClass(H5Error, "H5Error");
  }
}

/** `File(..., "w-")` (or `"x"`) on a store that already holds a hierarchy: h5py's `FileExistsError`. */
export class FileExistsError extends H5Error {
  static {
    nameErrorClass(FileExistsError, "FileExistsError");
  }
  constructor(readonly filename: string) {
    super(
      `Unable to create file ${JSON.stringify(filename)}: it already holds a Zarr hierarchy (mode "w-" never overwrites; use "w" to truncate or "a" to append)`,
    );
  }
}

/** Creating, moving or copying onto a name that is taken: h5py's "name already exists". */
export class NameExistsError extends H5Error {
  static {
    nameErrorClass(NameExistsError, "NameExistsError");
  }
  constructor(
    readonly objectName: string,
    action = "create",
  ) {
    super(`Unable to ${action} ${JSON.stringify(objectName)}: the name already exists`);
  }
}

/**
 * An object of the wrong kind or incompatible shape or type (h5py's `TypeError`): a dataset
 * where a group is needed, `requireDataset` on a dataset of another shape, `length` of a scalar.
 */
export class H5TypeError extends H5Error {
  static {
    nameErrorClass(H5TypeError, "H5TypeError");
  }
}

/**
 * An invalid argument (h5py's `ValueError`): an unknown compression, a maxshape smaller than
 * the shape, a resize beyond maxshape, a data shape that does not fit.
 */
export class H5ValueError extends H5Error {
  static {
    nameErrorClass(H5ValueError, "H5ValueError");
  }
}

/** An operation on a file after `close()`. */
export class ClosedFileError extends H5Error {
  static {
    nameErrorClass(ClosedFileError, "ClosedFileError");
  }
  constructor(filename: string) {
    super(`The file ${JSON.stringify(filename)} is closed; open it again with File()`);
  }
}

/**
 * A write to a file opened with mode "r" (h5py: "no write intent on file"). A
 * {@link ReadOnlyError}, so one `instanceof` check covers read-only stores and files alike.
 */
export class FileModeError extends ReadOnlyError {
  static {
    nameErrorClass(FileModeError, "FileModeError");
  }
  constructor(objectName: string, action: string, mode: string) {
    super(objectName, action);
    this.message = `Cannot ${action} ${JSON.stringify(objectName)}: the file was opened read-only (mode ${JSON.stringify(mode)}); open it with mode "r+" or "a" to write`;
  }
}

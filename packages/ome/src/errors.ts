import { nameErrorClass, ZarrError } from "@z/errors";

declare module "@z/errors" {
  interface ZarrErrorMap {
    OmeMetadataError: OmeMetadataError;
    OmeOptionError: OmeOptionError;
  }
}

/**
 * OME-Zarr metadata that breaks the specification: the message names the field (`where`, a
 * path into the attributes such as `multiscales[0].datasets[1].coordinateTransformations`) and
 * what is wrong with it.
 * @example
 * ```ts
 * try {
 *   await openMultiscale(store);
 * } catch (e) {
 *   if (isZarrError(e, "OmeMetadataError")) console.log(e.where, e.problem);
 * }
 * ```
 * @category Errors
 */
export class OmeMetadataError extends ZarrError {
  static {
    nameErrorClass(OmeMetadataError, "OmeMetadataError");
  }
  /** The field at fault, as a path into the attributes (`multiscales[0].axes[2].type`). */
  readonly where: string;
  /** What is wrong with it. */
  readonly problem: string;
  constructor(where: string, problem: string, options: { path?: string } = {}) {
    const node = options.path === undefined ? "" : ` (in the group "/${options.path}")`;
    super(`${where}: ${problem}${node}`, options);
    this.where = where;
    this.problem = problem;
  }
}

/**
 * An option of a call in this package that cannot be honoured: a level that does not exist, a
 * tile outside the level, an index outside its axis, a pyramid option out of range.
 * @category Errors
 */
export class OmeOptionError extends ZarrError {
  static {
    nameErrorClass(OmeOptionError, "OmeOptionError");
  }
  /** The option at fault (`level`, `c`, `downsample`...). */
  readonly option: string;
  constructor(option: string, problem: string) {
    super(`${option}: ${problem}`);
    this.option = option;
  }
}

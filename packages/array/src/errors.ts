import { nameErrorClass, ZarrError, type ZarrErrorOptions } from "@z/errors";
import type { DataTypeMismatchError } from "./create/data-type-check.js";

declare module "@z/errors" {
  interface ZarrErrorMap {
    NodeError: NodeError;
    ContainsArrayError: ContainsArrayError;
    ContainsGroupError: ContainsGroupError;
    MixedFormatsError: MixedFormatsError;
    NotEmptyError: NotEmptyError;
    ValueShapeError: ValueShapeError;
    ShapeMismatchError: ShapeMismatchError;
    DataTypeMismatchError: DataTypeMismatchError;
  }
}

/**
 * Base class of the errors raised by arrays and groups.
 * @category Errors
 */
export class NodeError extends ZarrError {
  static {
    nameErrorClass(NodeError, "NodeError");
  }
  /** The path of the node (array or group) the error is about, without a leading `/`. */
  declare readonly path?: string;
  constructor(message?: string, options?: Pick<ZarrErrorOptions, "path" | "key" | "cause">) {
    super(message, options);
  }
}

/**
 * An array exists where a group (or nothing) was expected.
 * @category Errors
 */
export class ContainsArrayError extends NodeError {
  static {
    nameErrorClass(ContainsArrayError, "ContainsArrayError");
  }
  /** The node's path. */
  declare readonly path: string;
  constructor(path: string, hint = "") {
    super(`An array already exists at ${JSON.stringify(`/${path}`)}${hint ? `: ${hint}` : ""}`, {
      path,
    });
  }
}

/**
 * A group exists where an array (or nothing) was expected.
 * @category Errors
 */
export class ContainsGroupError extends NodeError {
  static {
    nameErrorClass(ContainsGroupError, "ContainsGroupError");
  }
  /** The node's path. */
  declare readonly path: string;
  constructor(path: string, hint = "") {
    super(`A group already exists at ${JSON.stringify(`/${path}`)}${hint ? `: ${hint}` : ""}`, {
      path,
    });
  }
}

/**
 * Something is stored at a path where mode `"w-"` was to create a node: keys that are not a
 * node's metadata (a node there is a {@link ContainsArrayError} or {@link ContainsGroupError}).
 * @category Errors
 */
export class NotEmptyError extends NodeError {
  static {
    nameErrorClass(NotEmptyError, "NotEmptyError");
  }
  /** The path where the node was to be created. */
  declare readonly path: string;
  /** A key found under it. */
  declare readonly key: string;
  constructor(path: string, key: string) {
    super(
      `Cannot create a node at ${JSON.stringify(`/${path}`)} with mode "w-": the store holds ${JSON.stringify(key)} there; use mode "w" to replace it`,
      { path, key },
    );
  }
}

/**
 * A node that would be created under a group of the other Zarr format (a v2 array under a v3
 * group): a group lists only children of its own format, so the child would be missing from
 * the hierarchy. A hierarchy has one format; copy it with `copyNode(..., {zarrFormat})` to
 * convert it.
 * @category Errors
 */
export class MixedFormatsError extends NodeError {
  static {
    nameErrorClass(MixedFormatsError, "MixedFormatsError");
  }
  /** The path of the node that was to be created. */
  declare readonly path: string;
  constructor(
    path: string,
    /** The format of the node that was to be created. */
    readonly zarrFormat: 2 | 3,
    /** The path of the group of the other format above it. */
    readonly parent: string,
    /** That group's format. */
    readonly parentZarrFormat: 2 | 3,
  ) {
    super(
      `Cannot create the v${zarrFormat} node /${path} under the v${parentZarrFormat} group /${parent}: ` +
        "a group only lists children of its own format (a hierarchy has one format)",
      { path },
    );
  }
}

/**
 * A value passed to `set` that does not fit the selection (shape, length, element type).
 * @category Errors
 */
export class ValueShapeError extends NodeError {
  static {
    nameErrorClass(ValueShapeError, "ValueShapeError");
  }
}

/**
 * An existing array has another shape than asked for (`group.requireArray`).
 * @category Errors
 */
export class ShapeMismatchError extends NodeError {
  static {
    nameErrorClass(ShapeMismatchError, "ShapeMismatchError");
  }
  /** The array's path. */
  declare readonly path: string;
  constructor(
    path: string,
    /** The shape asked for. */
    readonly expected: readonly number[],
    /** The array's shape. */
    readonly actual: readonly number[],
  ) {
    super(
      `The array at ${JSON.stringify(`/${path}`)} has shape ${formatShape(actual)}, not ${formatShape(expected)} as asked`,
      { path },
    );
  }
}

function formatShape(shape: readonly number[]): string {
  return `[${Array.from(shape).join(", ")}]`;
}

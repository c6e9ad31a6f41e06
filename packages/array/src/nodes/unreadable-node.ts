/**
 * A member of a group that could not be opened (its metadata is malformed, names a codec or
 * data type that is not registered, cannot be read, ...). `group.members()` lists it in the
 * place of the node, so one such child never hides its siblings; `error` says what is wrong.
 *
 * @example
 * ```ts
 * for (const [name, node] of await group.members()) {
 *   if (node instanceof UnreadableNode) console.warn(`${name}: ${node.error.message}`);
 *   else console.log(name, String(node));
 * }
 * ```
 * @category Arrays and groups
 */
export class UnreadableNode {
  constructor(
    /** The member's path in the store (no leading `/`). */
    readonly path: string,
    /** Why it could not be opened: the error opening it threw (typed, with its facts). */
    readonly error: Error,
  ) {}

  /** The member's name: the last segment of its path. */
  get name(): string {
    return this.path.split("/").pop() ?? "";
  }

  /** A short human-readable description, with the error. */
  toString(): string {
    return `<UnreadableNode /${this.path}: ${this.error.name}: ${this.error.message}>`;
  }
}

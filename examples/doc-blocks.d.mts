/** One TypeScript or JavaScript block of a Markdown text. */
export interface CodeBlock {
  /** The 1-based line of the block's first code line. */
  line: number;
  /** The block's text. */
  code: string;
  /** False when marked `<!-- example: no-run (reason) -->`: type-checked, never run. */
  run: boolean;
  /** Why a block does not run, when the marker says. */
  reason: string | undefined;
  /** The ```text block right after it: everything it prints (line: its first text line). */
  output: { line: number; text: string } | undefined;
}

/** The TypeScript and JavaScript blocks of a Markdown text, in order. */
export function codeBlocks(markdown: string): CodeBlock[];

/**
 * One module from a file's blocks (notebook-style, imports merged at the top); with
 * `outputRuntime`, one that also checks what it prints against the claims of the blocks.
 */
export function programOf(
  source: string,
  blocks: CodeBlock[],
  options?: { outputRuntime?: string },
): string;

/** Claims of output that would go unchecked, as messages naming the Markdown line. */
export function outputProblems(source: string, blocks: CodeBlock[]): string[];

/** README.md and every guide under docs/ (sub-folders included), relative to `root`, sorted. */
export function documentedFiles(root: string): string[];

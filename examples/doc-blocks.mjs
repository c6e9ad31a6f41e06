// Code blocks of the Markdown docs (README.md, docs/*.md) as programs that can be type-checked
// and run, so the examples users copy keep working and print what the docs say they print.
// Shared by examples/test/doc-examples.test.ts (type checks, runs against the sources) and
// check-docs.mjs (runs against the built packages).
//
// The ways a doc says what its code prints (`// → text`, output blocks) are described at the
// top of check-docs.mjs: programOf builds them into the program, doc-blocks-output.mjs compares
// when it runs, outputProblems refuses claims that would go unchecked.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

/** Languages whose blocks are examples; other blocks (sh, json, ...) are left alone. */
const EXAMPLE_LANGUAGES = new Set(["ts", "typescript", "js", "javascript"]);

/**
 * The marker, on the line before a block, of an example that must not run (it needs a browser
 * or a server): `<!-- example: no-run (a reason) -->`. Such blocks are still type-checked.
 */
const NO_RUN = /^<!--\s*example:\s*no-run\b(.*?)-->\s*$/;

/** A comment claiming what its statement prints: `// → text`. */
const CLAIM = /^\/\/\s*→\s?(.*)$/;

/** Comments that read as a claim of output but are not written as one. */
const LOOKS_LIKE_CLAIM = /^\/\/\s*(prints?\b|->|=>)/i;

/**
 * The TypeScript and JavaScript blocks of a Markdown text, in order, with the line each starts
 * on (1-based), whether it is marked not to run and the output block that follows it, if any.
 */
export function codeBlocks(markdown) {
  const lines = markdown.split("\n");
  const blocks = [];
  const closing = (start) => {
    let end = start + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    if (end === lines.length) throw new Error(`Unclosed code block at line ${start + 1}`);
    return end;
  };
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = closing(i);
    if (EXAMPLE_LANGUAGES.has(open[1])) {
      const before = i > 0 ? NO_RUN.exec(lines[i - 1].trim()) : null;
      const block = {
        line: i + 2,
        code: lines.slice(i + 1, end).join("\n"),
        run: before === null,
        reason: before?.[1].trim() || undefined,
        output: undefined,
      };
      blocks.push(block);
      let next = end + 1;
      while (next < lines.length && lines[next].trim() === "") next++;
      if (next < lines.length && /^```text\s*$/.test(lines[next])) {
        const outputEnd = closing(next);
        block.output = { line: next + 2, text: lines.slice(next + 1, outputEnd).join("\n") };
        i = outputEnd;
        continue;
      }
    }
    i = end;
  }
  return blocks;
}

/**
 * The single-line comments of a parsed block, in order: each with its position, its 0-based
 * line, whether code precedes it on that line and that code. Found as the trivia around every
 * token, so text inside strings and templates is never taken for a comment.
 */
function lineComments(file) {
  const found = new Map();
  const visit = (node) => {
    const ranges = [
      ...(ts.getLeadingCommentRanges(file.text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(file.text, node.end) ?? []),
    ];
    for (const range of ranges) {
      if (range.kind === ts.SyntaxKind.SingleLineCommentTrivia) found.set(range.pos, range);
    }
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return [...found.values()]
    .sort((a, b) => a.pos - b.pos)
    .map((range) => {
      const { line, character } = file.getLineAndCharacterOfPosition(range.pos);
      const lineStart = range.pos - character;
      return {
        pos: range.pos,
        line,
        text: file.text.slice(range.pos, range.end).trim(),
        trailing: file.text.slice(lineStart, range.pos).trim() !== "",
        code: file.text.slice(lineStart, range.pos),
      };
    });
}

/**
 * One module from a file's blocks, read like a notebook: later blocks use what earlier ones
 * declared. Imports are gathered at the top, named imports of one module merged, so each block
 * can show its own imports. Each block starts on a comment naming its Markdown line.
 *
 * With `outputRuntime` (the import specifier of doc-blocks-output.mjs from where the program
 * is written), the program also records what each top-level statement prints and, at its end,
 * throws when that differs from the doc's claims (`// →` comments and output blocks). Such a
 * program is only for running: its statements sit in one `try` block.
 */
export function programOf(source, blocks, { outputRuntime } = {}) {
  const named = new Map(); // module -> Set of "name" or "name as alias" (type-only prefixed)
  const other = new Set(); // default and namespace imports, side-effect imports, as written
  const bodies = [];
  const statements = []; // what the runtime checks: {line, claimLine, claims} per statement
  const outputs = []; // {line, text, statements} per output block
  for (const block of blocks) {
    const file = ts.createSourceFile("block.ts", block.code, ts.ScriptTarget.Latest, true);
    const edits = []; // [start, end, replacement], applied last to first
    const own = []; // [statement index, start position] of this block's statements
    for (const statement of file.statements) {
      if (!ts.isImportDeclaration(statement)) {
        if (outputRuntime) {
          const start = statement.getStart();
          const { line } = file.getLineAndCharacterOfPosition(start);
          own.push([statements.length, start]);
          edits.push([start, start, `__output.at(${statements.length}); `]);
          statements.push({ line: block.line + line, claimLine: undefined, claims: [] });
        }
        continue;
      }
      const from = statement.moduleSpecifier.text;
      const bindings = statement.importClause?.namedBindings;
      if (statement.importClause?.name || !bindings || !ts.isNamedImports(bindings)) {
        other.add(statement.getText());
      } else {
        if (!named.has(from)) named.set(from, new Set());
        const typeOnly = statement.importClause.isTypeOnly ? "type " : "";
        for (const element of bindings.elements) named.get(from).add(typeOnly + element.getText());
      }
      edits.push([statement.getStart(), statement.getEnd(), ""]);
    }
    if (outputRuntime) {
      for (const comment of lineComments(file)) {
        const claim = CLAIM.exec(comment.text);
        if (!claim) continue;
        const owner = own.findLast(([, start]) => start <= comment.pos);
        if (!owner) {
          throw new Error(`${source}:${block.line + comment.line}: "// →" before any statement`);
        }
        const statement = statements[owner[0]];
        statement.claimLine ??= block.line + comment.line;
        statement.claims.push(claim[1]);
      }
      if (block.output) outputs.push({ ...block.output, statements: own.map(([index]) => index) });
    }
    let body = block.code;
    for (const [start, end, text] of edits.sort((a, b) => b[0] - a[0])) {
      body = body.slice(0, start) + text + body.slice(end);
    }
    bodies.push(`// ${source}:${block.line}\n${body.trim()}`);
  }
  const header = [...other];
  for (const [from, names] of named) {
    header.push(`import { ${[...names].join(", ")} } from ${JSON.stringify(from)};`);
  }
  if (!outputRuntime) return `${header.join("\n")}\n\n${bodies.join("\n\n")}\nexport {};\n`;
  header.push(`import { captureOutput as __captureOutput } from ${JSON.stringify(outputRuntime)};`);
  const expected = JSON.stringify({ statements, outputs });
  return [
    header.join("\n"),
    `const __output = __captureOutput(${JSON.stringify(source)}, ${expected});`,
    "try {",
    bodies.join("\n\n"),
    "} finally {",
    "  __output.restore();",
    "}",
    "__output.check();",
    "export {};",
    "",
  ].join("\n");
}

/**
 * What is wrong with how a file's blocks claim their output, as messages naming the Markdown
 * line: a remark after a line that prints, or a comment reading as a claim, that is not a
 * `// →` claim (so it would go unchecked); claims or an output block on a block that does not
 * run.
 */
export function outputProblems(source, blocks) {
  const problems = [];
  for (const block of blocks) {
    const file = ts.createSourceFile("block.ts", block.code, ts.ScriptTarget.Latest, true);
    for (const comment of lineComments(file)) {
      const where = `${source}:${block.line + comment.line}`;
      if (CLAIM.test(comment.text)) {
        if (!block.run) problems.push(`${where}: a "// →" claim in a block that does not run`);
      } else if (
        block.run &&
        (LOOKS_LIKE_CLAIM.test(comment.text) ||
          (comment.trailing && /\bconsole\.(log|info)\(/.test(comment.code)))
      ) {
        problems.push(
          `${where}: write what this prints as "// → ..." (checked), or put the remark on a line of its own: ${comment.text}`,
        );
      }
    }
    if (block.output && !block.run) {
      problems.push(
        `${source}:${block.output.line}: an output block after a block that does not run`,
      );
    }
  }
  return problems;
}

/**
 * The Markdown files whose examples are checked, relative to the repository root: README.md
 * and every guide under docs/ (sub-folders included), in a stable order.
 */
export function documentedFiles(root) {
  const guides = readdirSync(join(root, "docs"), { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".md") && !name.startsWith("api"))
    .sort()
    .map((name) => `docs/${name.split("\\").join("/")}`);
  return ["README.md", ...guides];
}

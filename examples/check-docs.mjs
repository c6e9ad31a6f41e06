// Runs the examples of README.md and docs/*.md against the BUILT packages (dist/), as a user
// who installed them from npm would: each document's runnable blocks (see doc-blocks.mjs) as
// one program, transpiled to JavaScript, run by node in a fresh temporary folder. What the docs
// say the code prints is compared with what it prints:
// - `// → text` after a statement (in a block that runs): the statement prints `text`; more
//   lines on `// → more` comment lines below it (inside a loop's body too). A statement's claims
//   are everything it prints, each time round a loop included.
// - a ```text block right after a block that runs (blank lines between at most): everything
//   that block prints.
// "Prints" is what console.log and console.info write (util.format, as Node prints it). Runs of
// whitespace compare as one space and none is needed inside brackets (`[1, 2]` is Node's
// `[ 1, 2 ]`); `…` in a claim stands for any text (digits that vary, a temporary path).
// A remark after a line that prints, or a `// prints` comment, is refused so that every claim is
// checked: put remarks on their own line. Blocks marked no-run make no checked claims.
// `pnpm run docs` runs it after typedoc; exits 1 when an example fails, prints other than its
// doc says, or the site holds a file from outside docs/.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { codeBlocks, documentedFiles, outputProblems, programOf } from "./doc-blocks.mjs";

const root = join(import.meta.dirname, "..");
const documents = documentedFiles(root);
// Inside the repository so that `@z/...` imports resolve to the workspace's packages.
const programs = join(root, ".tmp", "doc-examples-built");
rmSync(programs, { recursive: true, force: true });
mkdirSync(programs, { recursive: true });

let failures = 0;
for (const document of documents) {
  const blocks = codeBlocks(readFileSync(join(root, document), "utf8"));
  const problems = outputProblems(document, blocks);
  if (problems.length > 0) {
    failures++;
    for (const problem of problems) console.error(`FAIL ${problem}`);
  }
  const runnable = blocks.filter((block) => block.run);
  if (runnable.length === 0) continue;
  // The program sits in programs/, two folders below the root like examples/doc-blocks-output.mjs.
  const program = programOf(document, runnable, {
    outputRuntime: "../../examples/doc-blocks-output.mjs",
  });
  const { outputText } = ts.transpileModule(program, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  const file = join(programs, `${document.replaceAll("/", "_")}.mjs`);
  writeFileSync(file, outputText);
  const cwd = mkdtempSync(join(tmpdir(), "z-doc-example-"));
  try {
    execFileSync(process.execPath, [file], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    console.log(`ok   ${document} (${runnable.length} of ${blocks.length} blocks)`);
  } catch (error) {
    failures++;
    // The error's name and message, without node's excerpt of the source and the stack.
    const stderr = String(error.stderr ?? error);
    const thrown = /^\w*Error: [\s\S]*?(?=\n\s+at )/m.exec(stderr)?.[0] ?? stderr;
    console.error(`FAIL ${document}: ${thrown.trim()}`);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
rmSync(programs, { recursive: true, force: true });

// typedoc copies the files that the pages link to into media/: only files of docs/ belong
// there, never a note from outside the published docs.
const media = join(root, "docs", "api", "media");
const published = new Set(readdirSync(join(root, "docs")));
for (const name of existsSync(media) ? readdirSync(media) : []) {
  if (!published.has(name)) {
    failures++;
    console.error(`FAIL docs/api/media/${name} is not a file of docs/ (a page links to it)`);
  }
}
if (failures > 0) {
  console.error(`${failures} failure(s)`);
  process.exitCode = 1;
}

// Runs the examples of README.md and docs/*.md against the BUILT packages (dist/), as a user
// who installed them from npm would: each document's runnable blocks (see doc-blocks.mjs) as
// one program, transpiled to JavaScript, run by node in a fresh temporary folder.
// `pnpm run docs` runs it after typedoc; exits 1 when an example fails or the site holds a
// file from outside docs/.
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
import { codeBlocks, documentedFiles, programOf } from "./doc-blocks.mjs";

const root = join(import.meta.dirname, "..");
const documents = documentedFiles(root);
// Inside the repository so that `@z/...` imports resolve to the workspace's packages.
const programs = join(root, ".tmp", "doc-examples-built");
rmSync(programs, { recursive: true, force: true });
mkdirSync(programs, { recursive: true });

let failures = 0;
for (const document of documents) {
  const blocks = codeBlocks(readFileSync(join(root, document), "utf8"));
  const runnable = blocks.filter((block) => block.run);
  if (runnable.length === 0) continue;
  const { outputText } = ts.transpileModule(programOf(document, runnable), {
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
    console.error(`FAIL ${document}: ${String(error.stderr ?? error).trim()}`);
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
  console.error(`${failures} document(s) with failing examples`);
  process.exitCode = 1;
}

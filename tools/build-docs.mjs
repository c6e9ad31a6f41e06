// Builds the typedoc site (docs/api) after building the packages: `pnpm run docs`. (A bare
// `pnpm docs` is pnpm's own alias of `npm docs`, which opens a package's web page instead.)
import { execSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execSync("npx turbo run build --output-logs=errors-only", { cwd: root, stdio: "inherit" });
execSync("npx typedoc", { cwd: root, stdio: "inherit" });
console.log(`documentation written to ${join(root, "docs", "api", "index.html")}`);

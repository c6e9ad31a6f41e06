// Runs a TypeScript module of this repository in a plain `node` process, against the workspace
// packages' TypeScript sources (the "source" export condition, as vitest resolves them):
//   node run-ts.mjs <module.ts> [args...]   calls the module's `main(args)`.
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { createServer } from "vite";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const conditions = ["source", "node", "import", "module", "default"];
const [entry, ...args] = process.argv.slice(2);
const server = await createServer({
  configFile: false,
  root,
  logLevel: "error",
  appType: "custom",
  server: { middlewareMode: true, hmr: false, watch: null, ws: false },
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const module = await server.ssrLoadModule(path.resolve(entry));
  await module.main(args);
} finally {
  await server.close();
}

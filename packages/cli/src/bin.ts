#!/usr/bin/env node
import { main } from "./main.js";

// A reader that stops early (`zarr get big | head`) closes the pipe: end quietly, as Unix tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2));

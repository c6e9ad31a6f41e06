#!/usr/bin/env node
// `pnpm viewer [--port 8080] [--data <folder>] [--delay <ms>] [--no-build]`: builds the viewer
// and serves it on 127.0.0.1. With --data, a local folder is served under /data/ too, so
// http://127.0.0.1:8080/?url=data/image.zarr opens a hierarchy from it. --delay holds every
// answer from /data/ that long, a slow network on which tiles arrive one by one and a fast pan
// aborts reads (the browser's network panel shows them cancelled).
import path from "node:path";
import { parseArgs } from "node:util";
import { buildViewer } from "./build.mjs";
import { startStaticServer } from "./static-server.mjs";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8080" },
    data: { type: "string" },
    delay: { type: "string", default: "0" },
    "no-build": { type: "boolean", default: false },
  },
});
const outDir = path.join(path.dirname(new URL(import.meta.url).pathname), "dist");
if (!values["no-build"]) await buildViewer(outDir);
const mounts = { "/": outDir };
if (values.data) mounts["/data/"] = path.resolve(values.data);
const delay = Number(values.delay);
const server = await startStaticServer({
  mounts,
  port: Number(values.port),
  delay: (urlPath) => (urlPath.startsWith("/data/") ? delay : 0),
});
console.log(`Zarr viewer: ${server.url}`);
if (values.data) console.log(`Local data: ${server.url}data/ (from ${mounts["/data/"]})`);
console.log("Open a hierarchy: type its URL in the page, or add ?url=<url> to the address.");

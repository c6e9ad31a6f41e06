// A writer of metadata-concurrency.test.ts in a Node process of its own: the test bundles this
// file from the sources (with the "source" condition) and runs two of them at once on one
// folder. `node child.mjs <folder> <ops.json>` runs the operations on an FsStore of the folder
// and prints the problems the writer saw, as one JSON line.
import { readFileSync } from "node:fs";
import { FsStore } from "@z/store-fs";
import { type Op, runWriter } from "./metadata-writers.js";

const [folder, opsFile] = process.argv.slice(2);
const ops = JSON.parse(readFileSync(opsFile, "utf8")) as Op[];
const problems = await runWriter(new FsStore(folder), ops);
process.stdout.write(`${JSON.stringify(problems)}\n`);

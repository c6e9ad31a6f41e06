// HttpStore reading from a server of another origin (CORS), with byte ranges.
import { HttpStore } from "@z/store-http";
import { type PageRequest, recordingFetch } from "./page-fetch.js";

(globalThis as Record<string, unknown>).__run = async (arg: {
  corsUrl: string;
  plainUrl: string;
}) => {
  const requests: PageRequest[] = [];
  const store = new HttpStore(`${arg.corsUrl}data/`, { fetch: recordingFetch(requests) });
  const list = (b: Uint8Array | undefined) => b && [...b];
  const result = {
    origin: location.origin,
    whole: list(await store.get("k")),
    part: list(await store.get("k", { range: { offset: 10, length: 5 } })),
    open: list(await store.get("k", { range: { offset: 95 } })),
    suffix: list(await store.get("k", { range: { suffix: 3 } })),
    missing: (await store.get("missing")) ?? null,
    has: await store.has("k"),
    requests,
    refused: "",
  };
  // The same read from a server that sends no CORS headers: the browser must block it.
  const plain = new HttpStore(`${arg.plainUrl}data/`, { retries: 0 });
  result.refused = await plain.get("k").then(
    () => "read succeeded",
    (error: Error) => error.name,
  );
  return result;
};

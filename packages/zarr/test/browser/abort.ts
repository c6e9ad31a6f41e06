// An AbortController aborts a read the server never answers.
import { HttpStore } from "@z/store-http";

let controller: AbortController | undefined;
let outcome: Promise<{ name: string; message: string }> | undefined;
let settled = false;

const scope = globalThis as Record<string, unknown>;

/** Starts the read of a key the server stalls on; returns at once. */
scope.__run = async (arg: { dataUrl: string }) => {
  controller = new AbortController();
  const store = new HttpStore(arg.dataUrl, { retries: 0 });
  outcome = store.get("slow", { signal: controller.signal }).then(
    () => ({ name: "resolved", message: "" }),
    (error: Error) => ({ name: error.name, message: error.message }),
  );
  outcome.finally(() => {
    settled = true;
  });
  return true;
};

/** Whether the read has finished, one way or the other. */
scope.__settled = async () => settled;

/** Aborts the read and reports how it ended. */
scope.__abort = async () => {
  controller!.abort();
  return await outcome!;
};

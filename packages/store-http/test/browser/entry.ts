// Runs in the browser: reads through HttpStore with the browser's own fetch, which throws
// "Illegal invocation" when called with `this` bound to anything but the window.
import { HttpStore } from "@z/store-http";

(window as unknown as { __run: () => Promise<unknown> }).__run = async () => {
  const store = new HttpStore(new URL("data.zarr/", location.href));
  const whole = await store.get("a/k");
  const part = await store.get("a/k", { range: { offset: 1, length: 2 } });
  const suffix = await store.get("a/k", { range: { suffix: 1 } });
  return {
    whole: whole && [...whole],
    part: part && [...part],
    suffix: suffix && [...suffix],
    missing: await store.get("a/missing"),
    has: await store.has("a/k"),
  };
};

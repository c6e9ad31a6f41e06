// A page built from @z/zarrita as an app would use it: open arrays over HTTP with zarr.open,
// read them with zarr.get. The test calls `__run({ dataUrl })`.
import * as zarr from "@z/zarrita";

async function read(dataUrl: string, name: string) {
  const store = new zarr.FetchStore(dataUrl);
  const arr = await zarr.open(zarr.root(store).resolve(`${name}/data`), { kind: "array" });
  const whole = await zarr.get(arr);
  const rows = await zarr.get(arr, [zarr.slice(1, 3), null]);
  return {
    dtype: arr.dtype,
    chunks: arr.chunks,
    attrs: arr.attrs,
    container: whole.data.constructor.name,
    shape: whole.shape,
    data: Array.from(whole.data as ArrayLike<number>),
    rows: { shape: rows.shape, data: Array.from(rows.data as ArrayLike<number>) },
    point: await zarr.get(arr, [2, 3]),
  };
}

(globalThis as { __run?: unknown }).__run = async ({ dataUrl }: { dataUrl: string }) => ({
  v3: await read(dataUrl, "v3"),
  v2: await read(dataUrl, "v2"),
  sharded: await read(dataUrl, "sharded"),
});

/**
 * A TypedArray's elements copied into a SharedArrayBuffer, as zarrita's
 * `useSharedArrayBuffer` asks (a TypedArray already shared, and other containers, as they
 * are: strings and objects cannot live in shared memory, as in zarrita).
 */
export function inSharedMemory<T>(data: T): T {
  if (!ArrayBuffer.isView(data) || typeof SharedArrayBuffer === "undefined") return data;
  const view = data as unknown as Uint8Array;
  if (view.buffer instanceof SharedArrayBuffer) return data;
  const Ctor = view.constructor as new (b: ArrayBufferLike, o: number, n: number) => Uint8Array;
  const shared = new SharedArrayBuffer(view.byteLength);
  new Uint8Array(shared).set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength));
  return new Ctor(shared, 0, view.length) as unknown as T;
}
